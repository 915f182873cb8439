extension ObservableType {
    /// An endless sequence that sends `element` again and again on `scheduler`.
    ///
    /// - parameter element: The element to repeat.
    /// - parameter scheduler: The scheduler the elements are sent on (default: the current thread's trampoline).
    /// - returns: The observable sequence; it never terminates, dispose it to stop it.
    public static func repeatElement(_ element: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        RepeatElement(element: element, scheduler: scheduler)
    }
}

private final class RepeatElementSink<Observer: ObserverType>: Sink<Observer> {
    func run(_ parent: RepeatElement<Observer.Element>) -> Disposable {
        parent.scheduler.scheduleRecursive(parent.element) { element, recurse in
            self.forwardOn(.next(element))
            recurse(element)
        }
    }
}

private final class RepeatElement<Element>: Producer<Element> {
    let element: Element
    let scheduler: ImmediateSchedulerType

    init(element: Element, scheduler: ImmediateSchedulerType) {
        self.element = element
        self.scheduler = scheduler
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = RepeatElementSink(observer: observer, cancel: cancel)
        let subscription = sink.run(self)
        return (sink: sink, subscription: subscription)
    }
}
