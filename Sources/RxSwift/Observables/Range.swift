extension ObservableType where Element: FixedWidthInteger {
    /// A sequence of `count` consecutive integers starting at `start`, followed by completion,
    /// sent on `scheduler`.
    ///
    /// A negative `count` or a range past `Element.max` is a programmer error and stops the
    /// program, as in RxSwift.
    ///
    /// - parameter start: The first integer.
    /// - parameter count: How many integers to send.
    /// - parameter scheduler: The scheduler the events are sent on (default: the current thread's trampoline).
    /// - returns: The observable sequence.
    public static func range(start: Element, count: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        if count < 0 {
            rxFatalError("range: count can't be negative")
        }
        if count > 0 && start.addingReportingOverflow(count - 1).overflow {
            rxFatalError("range: start + count - 1 overflows \(Element.self)")
        }
        return RangeProducer(start: start, count: count, scheduler: scheduler)
    }
}

private final class RangeSink<Observer: ObserverType>: Sink<Observer> where Observer.Element: FixedWidthInteger {
    typealias Element = Observer.Element

    func run(_ parent: RangeProducer<Element>) -> Disposable {
        // The state is the offset from `start` of the next integer to send.
        parent.scheduler.scheduleRecursive(Element.zero) { offset, recurse in
            if offset < parent.count {
                self.forwardOn(.next(parent.start + offset))
                recurse(offset + 1)
            } else {
                self.forwardOn(.completed)
                self.dispose()
            }
        }
    }
}

private final class RangeProducer<Element: FixedWidthInteger>: Producer<Element> {
    let start: Element
    let count: Element
    let scheduler: ImmediateSchedulerType

    init(start: Element, count: Element, scheduler: ImmediateSchedulerType) {
        self.start = start
        self.count = count
        self.scheduler = scheduler
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = RangeSink(observer: observer, cancel: cancel)
        let subscription = sink.run(self)
        return (sink: sink, subscription: subscription)
    }
}
