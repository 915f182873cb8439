extension ObservableType {
    /// Sends `elements` first, then the elements of `self`.
    ///
    /// - parameter elements: The elements to send before the source's.
    /// - returns: The source sequence with `elements` before it.
    public func startWith(_ elements: Element...) -> Observable<Element> {
        StartWith(source: asObservable(), elements: elements)
    }
}

/// Sends the prefix straight to the observer, then subscribes it to the source: no sink is needed.
private final class StartWith<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let elements: [Element]

    init(source: Observable<Element>, elements: [Element]) {
        self.source = source
        self.elements = elements
        super.init()
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        for element in elements {
            observer.on(.next(element))
        }
        return source.subscribe(observer)
    }
}
