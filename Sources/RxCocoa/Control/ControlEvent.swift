import RxSwift

/// A type that is a `ControlEvent`.
public protocol ControlEventType: ObservableType {
    /// The control event itself.
    func asControlEvent() -> ControlEvent<Element>
}

/// The events of a user-interface control (taps, edits): the sequence never fails, and only
/// the events of the user, not those caused by code, are sent.
///
/// Whoever makes one vouches for these properties of `events`. RxSwift subscribes on
/// `ConcurrentMainScheduler`, which runs at once on the main thread; this library has no
/// main thread to move to (MainScheduler is whatever hosts it), so the subscription is made
/// where `subscribe` is called.
public struct ControlEvent<PropertyType>: ControlEventType {
    /// The type of the events.
    public typealias Element = PropertyType

    let events: Observable<PropertyType>

    /// A control event of `events`, which must never fail.
    public init<Ev: ObservableType>(events: Ev) where Ev.Element == Element {
        self.events = events.asObservable()
    }

    /// Subscribes `observer` to the events.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        events.subscribe(observer)
    }

    /// The events as an `Observable`.
    public func asObservable() -> Observable<Element> {
        events
    }

    /// Returns `self`.
    public func asControlEvent() -> ControlEvent<Element> {
        self
    }

    /// The control event as an `Infallible` (a control event never fails).
    public func asInfallible() -> Infallible<Element> {
        asInfallible(onErrorFallbackTo: .empty())
    }
}

extension ControlEvent {
    /// The control event as a `Driver`. A control event never fails; if it did, debug builds
    /// stop and release builds end the driver.
    public func asDriver() -> Driver<Element> {
        asDriver { error -> Driver<Element> in
            reportBindingError(error)
            return Driver.empty()
        }
    }

    /// The control event as a `Signal`. A control event never fails; if it did, debug builds
    /// stop and release builds end the signal.
    public func asSignal() -> Signal<Element> {
        asSignal { error -> Signal<Element> in
            reportBindingError(error)
            return Signal.empty()
        }
    }
}

/// An error reached a binding that must not fail: a programmer error. Stops debug builds;
/// release builds print it and go on.
func reportBindingError(_ error: Swift.Error, file: StaticString = #file, line: UInt = #line) {
    #if DEBUG
    fatalError("Binding error: \(error)", file: file, line: line)
    #else
    print("Binding error: \(error)")
    #endif
}
