extension ObservableType {
    /// A sequence that never sends any event.
    ///
    /// - returns: The observable sequence.
    public static func never() -> Observable<Element> {
        NeverProducer()
    }
}

private final class NeverProducer<Element>: Producer<Element> {
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        Disposables.create()
    }
}
