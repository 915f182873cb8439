extension ObservableType {
    /// Splits the elements into windows, each an observable of elements: a new window opens
    /// each `timeSpan` or as soon as the current one received `count` elements, whichever
    /// comes first. Windows end with the source's completion or error.
    ///
    /// The source subscription lives until the outer subscription and every subscription to
    /// a window are disposed.
    ///
    /// - parameter timeSpan: The longest time a window stays open.
    /// - parameter count: The most elements a window receives.
    /// - parameter scheduler: The scheduler of the timers.
    /// - returns: A sequence of windows.
    public func window(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<Observable<Element>> {
        WindowTimeCount(source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler)
    }
}

private final class WindowTimeCountSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == Observable<Element> {
    private let parent: WindowTimeCount<Element>
    /// Held while handling source events and timers (recursive: the observer may feed the
    /// source again).
    private let lock = RecursiveLock()
    /// Guarded by `lock`: the open window.
    private var subject = PublishSubject<Element>()
    /// Guarded by `lock`: elements the open window received.
    private var count = 0
    /// Guarded by `lock`: id of the open window, so an outdated timer does nothing.
    private var windowId: UInt64 = 0
    private let timer = SerialDisposable()
    private let group = CompositeDisposable()
    /// Keeps `group` alive while windows are subscribed.
    private let refCount: RefCountDisposable

    init(parent: WindowTimeCount<Element>, observer: Observer, cancel: SinkDisposer) {
        self.parent = parent
        _ = group.insert(timer)
        refCount = RefCountDisposable(disposable: group)
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        lock.performLocked {
            forwardOn(.next(WindowObservable(subject: subject, refCount: refCount)))
            startTimer(for: windowId)
        }
        _ = group.insert(parent.source.subscribe(self))
        return refCount
    }

    func on(_ event: Event<Element>) {
        lock.performLocked {
            switch event {
            case .next(let element):
                subject.on(.next(element))
                count += 1
                if count == parent.count {
                    openNewWindow()
                }
            case .error(let error):
                timer.dispose()
                subject.on(.error(error))
                forwardOn(.error(error))
                dispose()
            case .completed:
                timer.dispose()
                subject.on(.completed)
                forwardOn(.completed)
                dispose()
            }
        }
    }

    /// Completes the open window and opens the next one. Called holding `lock`.
    private func openNewWindow() {
        count = 0
        windowId &+= 1
        subject.on(.completed)
        subject = PublishSubject<Element>()
        forwardOn(.next(WindowObservable(subject: subject, refCount: refCount)))
        startTimer(for: windowId)
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
                openNewWindow()
            }
        }
    }
}

/// One window: subscribing to it holds a reference to the source subscription.
private final class WindowObservable<Element>: Producer<Element> {
    private let subject: PublishSubject<Element>
    private let refCount: RefCountDisposable

    init(subject: PublishSubject<Element>, refCount: RefCountDisposable) {
        self.subject = subject
        self.refCount = refCount
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let release = refCount.retain()
        let sink = WindowObservableSink(observer: observer, cancel: cancel)
        let subscription = subject.subscribe(sink)
        return (sink: sink, subscription: Disposables.create(subscription, release))
    }
}

private final class WindowObservableSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    func on(_ event: Event<Observer.Element>) {
        forwardOn(event)
        if event.isStopEvent {
            dispose()
        }
    }
}

private final class WindowTimeCount<Element>: Producer<Observable<Element>> {
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

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Observable<Element> {
        let sink = WindowTimeCountSink(parent: self, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
