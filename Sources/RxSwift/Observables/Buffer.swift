extension ObservableType {
    /// Collects elements into arrays, sending one array each `timeSpan` or as soon as it holds
    /// `count` elements, whichever comes first (a full array starts a new time span). Arrays
    /// may be empty; the array being filled is sent on completion.
    ///
    /// - parameter timeSpan: The longest time an array collects elements.
    /// - parameter count: The most elements an array holds.
    /// - parameter scheduler: The scheduler of the timers.
    /// - returns: A sequence of arrays.
    public func buffer(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<[Element]> {
        BufferTimeCount(source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler)
    }
}

private final class BufferTimeCountSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == [Element] {
    private let parent: BufferTimeCount<Element>
    /// Held while handling source events and timers (recursive: the observer may feed the
    /// source again).
    private let lock = RecursiveLock()
    /// Guarded by `lock`: the array being filled.
    private var buffer: [Element] = []
    /// Guarded by `lock`: id of the current array, so an outdated timer does nothing.
    private var windowId: UInt64 = 0
    private let timer = SerialDisposable()

    init(parent: BufferTimeCount<Element>, observer: Observer, cancel: SinkDisposer) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        lock.performLocked { startTimer(for: windowId) }
        let subscription = parent.source.subscribe(self)
        return Disposables.create(timer, subscription)
    }

    func on(_ event: Event<Element>) {
        lock.performLocked {
            switch event {
            case .next(let element):
                buffer.append(element)
                if buffer.count == parent.count {
                    sendBufferAndStartNew()
                }
            case .error(let error):
                buffer = []
                forwardOn(.error(error))
                dispose()
            case .completed:
                let last = buffer
                buffer = []
                forwardOn(.next(last))
                forwardOn(.completed)
                dispose()
            }
        }
    }

    /// Called holding `lock`.
    private func sendBufferAndStartNew() {
        windowId &+= 1
        let id = windowId
        let full = buffer
        buffer = []
        forwardOn(.next(full))
        startTimer(for: id)
    }

    /// Called holding `lock`.
    private func startTimer(for id: UInt64) {
        if timer.isDisposed || id != windowId { return }
        let scheduled = SingleAssignmentDisposable()
        timer.disposable = scheduled
        scheduled.setDisposable(parent.scheduler.scheduleRelative(id, dueTime: parent.timeSpan) { [weak self] dueId in
            self?.timerFired(dueId)
            return Disposables.create()
        })
    }

    private func timerFired(_ dueId: UInt64) {
        lock.performLocked {
            if dueId == windowId {
                sendBufferAndStartNew()
            }
        }
    }
}

private final class BufferTimeCount<Element>: Producer<[Element]> {
    let source: Observable<Element>
    let timeSpan: RxTimeInterval
    let count: Int
    let scheduler: SchedulerType

    init(source: Observable<Element>, timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) {
        self.source = source
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == [Element] {
        let sink = BufferTimeCountSink(parent: self, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
