extension ObservableType {
    /// Combines the latest elements of every source of `collection` with `resultSelector`
    /// each time one of them sends an element, once each has sent one. An empty collection
    /// completes at once.
    ///
    /// - parameter collection: The sources.
    /// - parameter resultSelector: Combines the latest elements, in the collection's order.
    /// - returns: A sequence of the combined results.
    public static func combineLatest<Collection: Swift.Collection>(_ collection: Collection, resultSelector: @escaping ([Collection.Element.Element]) throws -> Element) -> Observable<Element> where Collection.Element: ObservableType {
        CombineLatestCollectionType(sources: collection.map { $0.asObservable() }, resultSelector: resultSelector)
    }

    /// Combines the latest elements of every source of `collection` into arrays each time one
    /// of them sends an element, once each has sent one.
    ///
    /// - parameter collection: The sources.
    /// - returns: A sequence of arrays of the latest elements, in the collection's order.
    public static func combineLatest<Collection: Swift.Collection>(_ collection: Collection) -> Observable<[Element]> where Collection.Element: ObservableType, Collection.Element.Element == Element {
        CombineLatestCollectionType(sources: collection.map { $0.asObservable() }, resultSelector: { $0 })
    }
}

private final class CombineLatestCollectionTypeSink<SourceElement, Observer: ObserverType>: Sink<Observer> {
    typealias Result = Observer.Element
    typealias Parent = CombineLatestCollectionType<SourceElement, Result>

    private let parent: Parent
    /// Held while handling any source's event, so the observer gets one event at a time
    /// (recursive: the observer may feed a source); never held while disposing a source.
    private let lock = RecursiveLock()
    /// Guarded by `lock`, as is everything below.
    private var numberOfValues = 0
    private var values: [SourceElement?]
    private var isDone: [Bool]
    private var numberOfDone = 0
    /// The terminal event was sent; later source events are ignored.
    private var finished = false
    private let subscriptions: [SingleAssignmentDisposable]

    init(parent: Parent, observer: Observer, cancel: SinkDisposer) {
        self.parent = parent
        let count = parent.sources.count
        self.values = [SourceElement?](repeating: nil, count: count)
        self.isDone = [Bool](repeating: false, count: count)
        self.subscriptions = (0..<count).map { _ in SingleAssignmentDisposable() }
        super.init(observer: observer, cancel: cancel)
    }

    private func on(_ event: Event<SourceElement>, atIndex index: Int) {
        var releasesSource = false
        let ended: Bool = lock.performLocked {
            if finished { return false }
            switch event {
            case .next(let element):
                if values[index] == nil {
                    numberOfValues += 1
                }
                values[index] = element
                if numberOfValues < parent.sources.count {
                    var allOthersDone = true
                    for other in 0..<parent.sources.count where other != index && !isDone[other] {
                        allOthersDone = false
                        break
                    }
                    return allOthersDone ? finish(.completed) : false
                }
                do {
                    let result = try parent.resultSelector(values.map { $0! })
                    forwardOn(.next(result))
                    return false
                } catch {
                    return finish(.error(error))
                }
            case .error(let error):
                return finish(.error(error))
            case .completed:
                if isDone[index] {
                    return false
                }
                isDone[index] = true
                numberOfDone += 1
                if numberOfDone == parent.sources.count {
                    return finish(.completed)
                }
                releasesSource = true
                return false
            }
        }
        // Sources are disposed after the lock is released.
        if ended {
            dispose()
        } else if releasesSource {
            subscriptions[index].dispose()
        }
    }

    /// Sends the terminal `event` (called holding `lock`); the caller disposes after it.
    private func finish(_ event: Event<Result>) -> Bool {
        finished = true
        forwardOn(event)
        return true
    }

    func run() -> Disposable {
        if parent.sources.isEmpty {
            do {
                let result = try parent.resultSelector([])
                forwardOn(.next(result))
                forwardOn(.completed)
            } catch {
                forwardOn(.error(error))
            }
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

private final class CombineLatestCollectionType<SourceElement, Result>: Producer<Result> {
    typealias ResultSelector = ([SourceElement]) throws -> Result

    let sources: [Observable<SourceElement>]
    let resultSelector: ResultSelector

    init(sources: [Observable<SourceElement>], resultSelector: @escaping ResultSelector) {
        self.sources = sources
        self.resultSelector = resultSelector
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Result {
        let sink = CombineLatestCollectionTypeSink(parent: self, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
