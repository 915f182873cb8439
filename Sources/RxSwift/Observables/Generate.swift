extension ObservableType {
    /// A sequence built like a `for` loop: starting from `initialState`, sends each state for
    /// which `condition` holds, moving to the next state with `iterate`; completes when
    /// `condition` fails. An error thrown by `condition` or `iterate` ends the sequence.
    ///
    /// - parameter initialState: The first state.
    /// - parameter condition: Whether to send a state (and go on).
    /// - parameter scheduler: The scheduler the events are sent on (default: the current thread's trampoline).
    /// - parameter iterate: Makes the next state from the current one.
    /// - returns: The observable sequence.
    public static func generate(initialState: Element, condition: @escaping (Element) throws -> Bool, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance, iterate: @escaping (Element) throws -> Element) -> Observable<Element> {
        Generate(initialState: initialState, condition: condition, iterate: iterate, scheduler: scheduler)
    }
}

private final class GenerateSink<Observer: ObserverType>: Sink<Observer> {
    typealias Element = Observer.Element

    func run(_ parent: Generate<Element>) -> Disposable {
        // The state says whether it is the initial one (not iterated yet).
        parent.scheduler.scheduleRecursive((isInitial: true, state: parent.initialState)) { step, recurse in
            do {
                let state = step.isInitial ? step.state : try parent.iterate(step.state)
                if try parent.condition(state) {
                    self.forwardOn(.next(state))
                    recurse((isInitial: false, state: state))
                } else {
                    self.forwardOn(.completed)
                    self.dispose()
                }
            } catch {
                self.forwardOn(.error(error))
                self.dispose()
            }
        }
    }
}

private final class Generate<Element>: Producer<Element> {
    let initialState: Element
    let condition: (Element) throws -> Bool
    let iterate: (Element) throws -> Element
    let scheduler: ImmediateSchedulerType

    init(initialState: Element, condition: @escaping (Element) throws -> Bool, iterate: @escaping (Element) throws -> Element, scheduler: ImmediateSchedulerType) {
        self.initialState = initialState
        self.condition = condition
        self.iterate = iterate
        self.scheduler = scheduler
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = GenerateSink(observer: observer, cancel: cancel)
        let subscription = sink.run(self)
        return (sink: sink, subscription: subscription)
    }
}
