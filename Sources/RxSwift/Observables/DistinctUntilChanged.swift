extension ObservableType where Element: Equatable {
    /// Drops each element equal to the one before it.
    ///
    /// - returns: A sequence without consecutive duplicates.
    public func distinctUntilChanged() -> Observable<Element> {
        DistinctUntilChanged(source: asObservable(), keySelector: { $0 }, comparer: ==)
    }
}

extension ObservableType {
    /// Drops each element whose key, given by `keySelector`, equals the previous element's.
    /// A thrown error ends the sequence with it.
    ///
    /// - parameter keySelector: The key elements are compared by.
    /// - returns: A sequence without consecutive duplicates.
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) throws -> Key) -> Observable<Element> {
        DistinctUntilChanged(source: asObservable(), keySelector: keySelector, comparer: ==)
    }

    /// Drops each element that `comparer` finds equal to the element before it.
    /// A thrown error ends the sequence with it.
    ///
    /// - parameter comparer: Whether two elements are equal.
    /// - returns: A sequence without consecutive duplicates.
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool) -> Observable<Element> {
        DistinctUntilChanged(source: asObservable(), keySelector: { $0 }, comparer: comparer)
    }

    /// Drops each element whose key, given by `keySelector`, `comparer` finds equal to the
    /// previous element's. A thrown error ends the sequence with it.
    ///
    /// - parameter keySelector: The key elements are compared by.
    /// - parameter comparer: Whether two keys are equal.
    /// - returns: A sequence without consecutive duplicates.
    public func distinctUntilChanged<Key>(_ keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool) -> Observable<Element> {
        DistinctUntilChanged(source: asObservable(), keySelector: keySelector, comparer: comparer)
    }

    /// Drops each element whose property at `keyPath` equals the previous element's.
    ///
    /// - parameter keyPath: The property elements are compared by.
    /// - returns: A sequence without consecutive duplicates.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> Observable<Element> {
        DistinctUntilChanged(source: asObservable(), keySelector: { $0[keyPath: keyPath] }, comparer: ==)
    }
}

private final class DistinctUntilChangedSink<Key, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element
    typealias Parent = DistinctUntilChanged<Element, Key>

    private let parent: Parent
    /// Only touched by `on`, which the source calls one event at a time.
    private var lastKey: Key?

    init(parent: Parent, observer: Observer, cancel: SinkDisposer) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            do {
                let key = try parent.keySelector(element)
                if let lastKey, try parent.comparer(lastKey, key) {
                    return
                }
                lastKey = key
                forwardOn(event)
            } catch {
                forwardOn(.error(error))
                dispose()
            }
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}

private final class DistinctUntilChanged<Element, Key>: Producer<Element> {
    let source: Observable<Element>
    let keySelector: (Element) throws -> Key
    let comparer: (Key, Key) throws -> Bool

    init(source: Observable<Element>, keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool) {
        self.source = source
        self.keySelector = keySelector
        self.comparer = comparer
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = DistinctUntilChangedSink<Key, Observer>(parent: self, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
