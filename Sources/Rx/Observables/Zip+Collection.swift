extension ObservableType {
    /// Combines the elements of every source of `collection` by index with `resultSelector`:
    /// the n-th result combines the n-th element of every source. Completes when every source
    /// completed, or when a source completed and another one's next element can never be
    /// matched; an empty collection completes at once.
    ///
    /// - parameter collection: The sources.
    /// - parameter resultSelector: Combines the elements of one index, in the collection's order.
    /// - returns: A sequence of the combined results.
    public static func zip<Collection: Swift.Collection>(_ collection: Collection, resultSelector: @escaping ([Collection.Element.Element]) throws -> Element) -> Observable<Element> where Collection.Element: ObservableType {
        ZipCollectionType(sources: collection.map { $0.asObservable() }, resultSelector: resultSelector)
    }

    /// Combines the elements of every source of `collection` by index into arrays.
    ///
    /// - parameter collection: The sources.
    /// - returns: A sequence of arrays of the elements of each index, in the collection's order.
    public static func zip<Collection: Swift.Collection>(_ collection: Collection) -> Observable<[Element]> where Collection.Element: ObservableType, Collection.Element.Element == Element {
        ZipCollectionType(sources: collection.map { $0.asObservable() }, resultSelector: { $0 })
    }
}

private final class ZipCollectionTypeSink<SourceElement, Observer: ObserverType>: Sink<Observer> {
    typealias Result = Observer.Element
    typealias Parent = ZipCollectionType<SourceElement, Result>

    private let parent: Parent
    /// Held while handling any source's event, so the observer gets one event at a time.
    private let lock = RecursiveLock()
    /// Guarded by `lock`, as is everything below: how many queues are not empty.
    private var numberOfValues = 0
    private var queues: [ZipQueue<SourceElement>]
    private var isDone: [Bool]
    private var numberOfDone = 0
    private let subscriptions: [SingleAssignmentDisposable]

    init(parent: Parent, observer: Observer, cancel: Cancelable) {
        self.parent = parent
        let count = parent.sources.count
        self.queues = [ZipQueue<SourceElement>](repeating: ZipQueue(), count: count)
        self.isDone = [Bool](repeating: false, count: count)
        self.subscriptions = (0..<count).map { _ in SingleAssignmentDisposable() }
        super.init(observer: observer, cancel: cancel)
    }

    private func on(_ event: Event<SourceElement>, atIndex index: Int) {
        lock.performLocked {
            switch event {
            case .next(let element):
                if queues[index].isEmpty {
                    numberOfValues += 1
                }
                queues[index].enqueue(element)
                if numberOfValues < queues.count {
                    // Every other source is done: this element can never be matched.
                    if numberOfDone == queues.count - 1 {
                        forwardOn(.completed)
                        dispose()
                    }
                    return
                }
                var arguments: [SourceElement] = []
                arguments.reserveCapacity(queues.count)
                numberOfValues = 0
                for source in 0..<queues.count {
                    arguments.append(queues[source].dequeue())
                    if !queues[source].isEmpty {
                        numberOfValues += 1
                    }
                }
                do {
                    let result = try parent.resultSelector(arguments)
                    forwardOn(.next(result))
                } catch {
                    forwardOn(.error(error))
                    dispose()
                }
            case .error(let error):
                forwardOn(.error(error))
                dispose()
            case .completed:
                if isDone[index] {
                    return
                }
                isDone[index] = true
                numberOfDone += 1
                if numberOfDone == queues.count {
                    forwardOn(.completed)
                    dispose()
                } else {
                    subscriptions[index].dispose()
                }
            }
        }
    }

    func run() -> Disposable {
        if parent.sources.isEmpty {
            forwardOn(.completed)
            dispose()
            return Disposables.create()
        }
        for (index, source) in parent.sources.enumerated() {
            let subscription = source.subscribe(AnyObserver { event in self.on(event, atIndex: index) })
            subscriptions[index].setDisposable(subscription)
        }
        return Disposables.create(subscriptions)
    }
}

private final class ZipCollectionType<SourceElement, Result>: Producer<Result> {
    typealias ResultSelector = ([SourceElement]) throws -> Result

    let sources: [Observable<SourceElement>]
    let resultSelector: ResultSelector

    init(sources: [Observable<SourceElement>], resultSelector: @escaping ResultSelector) {
        self.sources = sources
        self.resultSelector = resultSelector
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Result {
        let sink = ZipCollectionTypeSink(parent: self, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
