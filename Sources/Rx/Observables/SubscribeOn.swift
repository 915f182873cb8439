extension ObservableType {
    /// Subscribes to `self` (and disposes that subscription) on `scheduler`. Where the
    /// events are sent is up to `self`; use `observe(on:)` to choose it.
    ///
    /// - parameter scheduler: The scheduler the subscription and its disposal run on.
    /// - returns: The sequence, subscribed on `scheduler`.
    public func subscribe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        SubscribeOn(source: asObservable(), scheduler: scheduler)
    }

    /// The RxSwift 5 name of `subscribe(on:)`.
    ///
    /// - parameter scheduler: The scheduler the subscription and its disposal run on.
    /// - returns: The sequence, subscribed on `scheduler`.
    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        subscribe(on: scheduler)
    }
}

private final class SubscribeOnSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    func run(source: Observable<Element>, scheduler: ImmediateSchedulerType) -> Disposable {
        let disposeEverything = SerialDisposable()
        let scheduled = SingleAssignmentDisposable()
        disposeEverything.disposable = scheduled
        scheduled.setDisposable(scheduler.schedule(()) { _ in
            let subscription = source.subscribe(self)
            disposeEverything.disposable = ScheduledDisposable(scheduler: scheduler, disposable: subscription)
            return Disposables.create()
        })
        return disposeEverything
    }

    func on(_ event: Event<Element>) {
        forwardOn(event)
        if event.isStopEvent {
            dispose()
        }
    }
}

private final class SubscribeOn<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let scheduler: ImmediateSchedulerType

    init(source: Observable<Element>, scheduler: ImmediateSchedulerType) {
        self.source = source
        self.scheduler = scheduler
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = SubscribeOnSink(observer: observer, cancel: cancel)
        let subscription = sink.run(source: source, scheduler: scheduler)
        return (sink: sink, subscription: subscription)
    }
}
