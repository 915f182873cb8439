import RxSwift

/// A type that is a `ControlProperty`.
public protocol ControlPropertyType: ObservableType, ObserverType {
    /// The control property itself.
    func asControlProperty() -> ControlProperty<Element>
}

/// A property of a user-interface control (a text field's text): observing it gives its
/// current value and the user's changes (not those made by code); as an observer it sets
/// the value. It never fails.
///
/// Whoever makes one vouches for these properties of `values`. As with `ControlEvent`, the
/// subscription is made where `subscribe` is called (RxSwift moves it to
/// `ConcurrentMainScheduler`, which has no counterpart here).
public struct ControlProperty<PropertyType>: ControlPropertyType {
    /// The type of the property.
    public typealias Element = PropertyType

    let values: Observable<PropertyType>
    let valueSink: AnyObserver<PropertyType>

    /// A control property reading from `values` and writing to `valueSink`.
    public init<Values: ObservableType, Sink: ObserverType>(values: Values, valueSink: Sink) where Element == Values.Element, Element == Sink.Element {
        self.values = values.asObservable()
        self.valueSink = valueSink.asObserver()
    }

    /// Subscribes `observer` to the current value and the user's changes.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        values.subscribe(observer)
    }

    /// The user's changes only: every value but the first (the current one).
    public var changed: ControlEvent<PropertyType> {
        ControlEvent(events: values.skip(1))
    }

    /// The values as an `Observable`.
    public func asObservable() -> Observable<Element> {
        values
    }

    /// Returns `self`.
    public func asControlProperty() -> ControlProperty<Element> {
        self
    }

    /// Sets the property to each element; an error is a programmer error (debug builds
    /// stop); completion is passed on.
    public func on(_ event: Event<Element>) {
        switch event {
        case .error(let error):
            reportBindingError(error)
        case .next, .completed:
            valueSink.on(event)
        }
    }
}

extension ControlPropertyType where Element == String? {
    /// The property with `nil` read as `""`.
    public var orEmpty: ControlProperty<String> {
        let original: ControlProperty<String?> = asControlProperty()
        let values: Observable<String> = original.values.map { $0 ?? "" }
        let valueSink: AnyObserver<String> = original.valueSink.mapObserver { $0 }
        return ControlProperty<String>(values: values, valueSink: valueSink)
    }
}

extension ControlProperty {
    /// The control property as a `Driver`. A control property never fails; if it did, debug
    /// builds stop and release builds end the driver.
    public func asDriver() -> Driver<Element> {
        asDriver { error -> Driver<Element> in
            reportBindingError(error)
            return Driver.empty()
        }
    }
}
