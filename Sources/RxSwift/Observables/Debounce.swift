extension ObservableType {
    /// Sends an element only once `dueTime` passed without another element; each new element
    /// restarts the wait. On completion the element still waiting is sent first; an error
    /// drops it.
    ///
    /// - parameter dueTime: The quiet time an element must be followed by.
    /// - parameter scheduler: The scheduler of the timers.
    /// - returns: The debounced sequence.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Debounce(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

private final class DebounceSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let parent: Debounce<Element>
    /// Held while handling source events and timers (recursive: the observer may feed the
    /// source again).
    private let lock = RecursiveLock()
    /// Guarded by `lock`: id of the latest element, so an outdated timer does nothing.
    private var id: UInt64 = 0
    /// Guarded by `lock`: the element waiting for its quiet time.
    private var pending: Element?
    private let timer = SerialDisposable()

    init(parent: Debounce<Element>, observer: Observer, cancel: SinkDisposer) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        let subscription = parent.source.subscribe(self)
        return Disposables.create(subscription, timer)
    }

    func on(_ event: Event<Element>) {
        lock.performLocked {
            switch event {
            case .next(let element):
                id &+= 1
                let currentId = id
                pending = element
                let scheduled = SingleAssignmentDisposable()
                timer.disposable = scheduled
                scheduled.setDisposable(parent.scheduler.scheduleRelative(currentId, dueTime: parent.dueTime) { [weak self] dueId in
                    self?.timerFired(dueId)
                    return Disposables.create()
                })
            case .error:
                pending = nil
                forwardOn(event)
                dispose()
            case .completed:
                if let element = pending {
                    pending = nil
                    forwardOn(.next(element))
                }
                forwardOn(.completed)
                dispose()
            }
        }
    }

    private func timerFired(_ dueId: UInt64) {
        lock.performLocked {
            guard dueId == id, let element = pending else { return }
            pending = nil
            forwardOn(.next(element))
        }
    }
}

private final class Debounce<Element>: Producer<Element> {
    let source: Observable<Element>
    let dueTime: RxTimeInterval
    let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = DebounceSink(parent: self, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
