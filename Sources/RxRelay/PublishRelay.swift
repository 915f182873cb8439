import RxSwift

/// A `PublishSubject` that only sends elements: it never terminates.
public final class PublishRelay<Element>: ObservableType {
    @usableFromInline
    let subject = PublishSubject<Element>()

    /// A relay with no observers.
    @inlinable
    public init() {}

    /// Sends `event` as the next element to the current observers.
    @inlinable
    public func accept(_ event: Element) {
        subject.onNext(event)
    }

    /// Subscribes `observer` to the elements sent from now on.
    @inlinable
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay as an observable sequence.
    @inlinable
    public func asObservable() -> Observable<Element> {
        subject.asObservable()
    }
}
