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
    /// Guards the state below. Never held while sending an event or disposing a source: the
    /// events are put in `outbox` under it and sent after it is released by the one thread
    /// that is delivering, so an observer calling back into a source cannot deadlock.
    private let lock = RxLock(())
    /// Guarded by `lock`, as is everything below: how many queues are not empty.
    private var numberOfValues = 0
    private var queues: [ZipQueue<SourceElement>]
    private var isDone: [Bool]
    private var numberOfDone = 0
    /// A terminal event was put in `outbox`: later source events are ignored.
    private var finished = false
    /// Events waiting to be sent, oldest first.
    private var outbox: [Event<Result>] = []
    /// A thread is sending the events of `outbox`.
    private var delivering = false
    private let subscriptions: [SingleAssignmentDisposable]

    init(parent: Parent, observer: Observer, cancel: SinkDisposer) {
        self.parent = parent
        let count = parent.sources.count
        self.queues = [ZipQueue<SourceElement>](repeating: ZipQueue(), count: count)
        self.isDone = [Bool](repeating: false, count: count)
        self.subscriptions = (0..<count).map { _ in SingleAssignmentDisposable() }
        super.init(observer: observer, cancel: cancel)
    }

    private func on(_ event: Event<SourceElement>, atIndex index: Int) {
        var sourceToRelease: Int?
        let deliver: Bool = lock.performLocked {
            if finished { return false }
            switch event {
            case .next(let element):
                enqueue(element, atIndex: index)
            case .error(let error):
                finish(.error(error))
            case .completed:
                if !isDone[index] {
                    isDone[index] = true
                    numberOfDone += 1
                    if numberOfDone == queues.count {
                        finish(.completed)
                    } else {
                        sourceToRelease = index
                    }
                }
            }
            if outbox.isEmpty || delivering { return false }
            delivering = true
            return true
        }
        if let sourceToRelease {
            subscriptions[sourceToRelease].dispose()
        }
        if deliver {
            deliverOutbox()
        }
    }

    /// Queues `element`; when every source has one, combines the oldest of each (called
    /// holding `lock`).
    private func enqueue(_ element: SourceElement, atIndex index: Int) {
        if queues[index].isEmpty {
            numberOfValues += 1
        }
        queues[index].enqueue(element)
        if numberOfValues < queues.count {
            // Every other source is done: this element can never be matched.
            if numberOfDone == queues.count - 1 {
                finish(.completed)
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
            outbox.append(.next(try parent.resultSelector(arguments)))
        } catch {
            finish(.error(error))
        }
    }

    /// Puts the terminal `event` last in the outbox (called holding `lock`).
    private func finish(_ event: Event<Result>) {
        finished = true
        outbox.append(event)
    }

    /// Sends the outbox's events until it is empty; disposes everything after a terminal one.
    private func deliverOutbox() {
        while true {
            let batch: [Event<Result>] = lock.performLocked {
                let batch = outbox
                outbox.removeAll()
                if batch.isEmpty {
                    delivering = false
                }
                return batch
            }
            if batch.isEmpty { return }
            for event in batch {
                forwardOn(event)
                if event.isStopEvent {
                    dispose()
                    return
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

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Result {
        let sink = ZipCollectionTypeSink(parent: self, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
