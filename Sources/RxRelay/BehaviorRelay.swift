import RxSwift

/// A `BehaviorSubject` that only sends elements: it holds a current value and never terminates.
public final class BehaviorRelay<Element>: ObservableType {
    private let subject: BehaviorSubject<Element>

    /// A relay whose current value is `value`.
    public init(value: Element) {
        subject = BehaviorSubject(value: value)
    }

    /// Makes `event` the current value and sends it to the observers.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }

    /// The current value.
    public var value: Element {
        // A relay's subject never fails and is never disposed, so `value()` cannot throw.
        do {
            return try subject.value()
        } catch {
            fatalError("BehaviorRelay's subject failed: \(error)")
        }
    }

    /// Subscribes `observer`: it gets the current value, then the later ones.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay as an observable sequence.
    public func asObservable() -> Observable<Element> {
        subject.asObservable()
    }
}
