/// A push-style sequence.
public protocol ObservableType: ObservableConvertibleType {
    /// Subscribes `observer` to the events of this sequence.
    ///
    /// Grammar: `next* (error | completed)?`. Events may come from different threads but
    /// never two at once to one observer. On `error`/`completed` all internal resources are
    /// released; disposing the returned subscription cancels the sequence and releases them
    /// immediately.
    ///
    /// - returns: The subscription, used to cancel the sequence.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element
}

extension ObservableType {
    /// Wraps any `ObservableType` in an `Observable`.
    public func asObservable() -> Observable<Element> {
        Observable.create { observer in self.subscribe(observer) }
    }
}
