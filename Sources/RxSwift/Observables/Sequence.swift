extension ObservableType {
    /// A sequence of `elements` followed by completion, sent on `scheduler`.
    ///
    /// - parameter elements: The elements.
    /// - parameter scheduler: The scheduler the events are sent on (default: the current thread's trampoline).
    /// - returns: The observable sequence.
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        ObservableSequence(elements: elements, scheduler: scheduler)
    }

    /// A sequence of the elements of `array` followed by completion, sent on `scheduler`.
    ///
    /// - returns: The observable sequence.
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        ObservableSequence(elements: array, scheduler: scheduler)
    }

    /// A sequence of the elements of `sequence` followed by completion, sent on `scheduler`.
    ///
    /// - returns: The observable sequence.
    public static func from<Source: Sequence>(_ sequence: Source, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> where Source.Element == Element {
        ObservableSequence(elements: sequence, scheduler: scheduler)
    }

    /// A sequence of the optional's element, if any, followed by completion.
    ///
    /// - returns: The observable sequence.
    public static func from(optional: Element?) -> Observable<Element> {
        if let optional {
            return just(optional)
        }
        return empty()
    }

    /// A sequence of the optional's element, if any, followed by completion, sent on `scheduler`.
    ///
    /// - returns: The observable sequence.
    public static func from(optional: Element?, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        ObservableSequence(elements: optional.map { [$0] } ?? [], scheduler: scheduler)
    }
}

private final class ObservableSequenceSink<Source: Sequence, Observer: ObserverType>: Sink<Observer> where Source.Element == Observer.Element {
    func run(_ parent: ObservableSequence<Source>) -> Disposable {
        parent.scheduler.scheduleRecursive(parent.elements.makeIterator()) { iterator, recurse in
            var iterator = iterator
            if let next = iterator.next() {
                self.forwardOn(.next(next))
                recurse(iterator)
            } else {
                self.forwardOn(.completed)
                self.dispose()
            }
        }
    }
}

private final class ObservableSequence<Source: Sequence>: Producer<Source.Element> {
    let elements: Source
    let scheduler: ImmediateSchedulerType

    init(elements: Source, scheduler: ImmediateSchedulerType) {
        self.elements = elements
        self.scheduler = scheduler
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = ObservableSequenceSink<Source, Observer>(observer: observer, cancel: cancel)
        let subscription = sink.run(self)
        return (sink: sink, subscription: subscription)
    }
}
