extension ObservableType {
    /// A sequence that completes at once, with no elements.
    ///
    /// - returns: The observable sequence.
    public static func empty() -> Observable<Element> {
        EmptyProducer<Element>()
    }
}

private final class EmptyProducer<Element>: Producer<Element> {
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        observer.on(.completed)
        return Disposables.create()
    }
}
