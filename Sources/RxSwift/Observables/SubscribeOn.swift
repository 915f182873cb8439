extension ObservableType {
    /// Subscribes to `self` (and disposes that subscription) on `scheduler`. Where the
    /// events are sent is up to `self`; use `observe(on:)` to choose it.
    ///
    /// - parameter scheduler: The scheduler the subscription and its disposal run on.
    /// - returns: The sequence, subscribed on `scheduler`.
    public func subscribe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        // The source itself, not `asObservable()`: a wrapper would end the source's
        // subscription on its terminal event at once, while RxSwift disposes it only on
        // `scheduler`.
        SubscribeOn(source: self, scheduler: scheduler)
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

private final class SubscribeOnSink<Source: ObservableType, Observer: ObserverType>: Sink<Observer>, ObserverType where Source.Element == Observer.Element {
    typealias Element = Observer.Element

    func run(source: Source, scheduler: ImmediateSchedulerType) -> Disposable {
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

private final class SubscribeOn<Source: ObservableType>: Producer<Source.Element> {
    private let source: Source
    private let scheduler: ImmediateSchedulerType

    init(source: Source, scheduler: ImmediateSchedulerType) {
        self.source = source
        self.scheduler = scheduler
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Source.Element {
        let sink = SubscribeOnSink<Source, Observer>(observer: observer, cancel: cancel)
        let subscription = sink.run(source: source, scheduler: scheduler)
        return (sink: sink, subscription: subscription)
    }
}
