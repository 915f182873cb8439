/// The elements of a sequence that share one key (see `groupBy`).
public struct GroupedObservable<Key, Element>: ObservableType {
    /// The key of the group's elements.
    public let key: Key

    private let source: Observable<Element>

    /// A group with `key` whose elements are those of `source`.
    public init(key: Key, source: Observable<Element>) {
        self.key = key
        self.source = source
    }

    /// Subscribes `observer` to the group's elements.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        source.subscribe(observer)
    }

    /// The group's elements.
    public func asObservable() -> Observable<Element> {
        source
    }
}
