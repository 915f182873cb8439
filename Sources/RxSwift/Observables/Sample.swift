extension ObservableType {
    /// Each time `sampler` sends an element (or completes), sends the latest element of `self`
    /// received since the previous sample, or `defaultValue` when there is none. Completes at
    /// the first sample after `self` completed; fails when either fails.
    ///
    /// - parameter sampler: The sequence whose elements trigger the samples.
    /// - parameter defaultValue: Sent at a sample when `self` sent nothing new (nothing is
    ///   sent then when it is `nil`).
    /// - returns: The sampled sequence.
    public func sample<Source: ObservableType>(_ sampler: Source, defaultValue: Element? = nil) -> Observable<Element> {
        Sample(source: asObservable(), sampler: sampler.asObservable(), defaultValue: defaultValue)
    }
}

private final class SampleSink<SamplerElement, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let parent: Sample<Element, SamplerElement>
    /// Held while handling either sequence's events (recursive: the observer may feed a
    /// source again).
    let lock = RecursiveLock()
    /// Guarded by `lock`: the element not yet sampled.
    private var element: Element?
    /// Guarded by `lock`: the source completed.
    private var atEnd = false
    private let sourceSubscription = SingleAssignmentDisposable()

    init(parent: Sample<Element, SamplerElement>, observer: Observer, cancel: SinkDisposer) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        sourceSubscription.setDisposable(parent.source.subscribe(self))
        let samplerSubscription = parent.sampler.subscribe(SamplerObserver(parent: self))
        return Disposables.create(sourceSubscription, samplerSubscription)
    }

    func on(_ event: Event<Element>) {
        lock.performLocked {
            switch event {
            case .next(let value):
                element = value
            case .error:
                forwardOn(event)
                dispose()
            case .completed:
                atEnd = true
                sourceSubscription.dispose()
            }
        }
    }

    /// The sampler ticked (called holding `lock`).
    func sampleNow() {
        if let value = element ?? parent.defaultValue {
            element = nil
            forwardOn(.next(value))
        }
        if atEnd {
            forwardOn(.completed)
            dispose()
        }
    }
}

private final class SamplerObserver<SamplerElement, Observer: ObserverType>: ObserverType {
    private let parent: SampleSink<SamplerElement, Observer>

    init(parent: SampleSink<SamplerElement, Observer>) {
        self.parent = parent
    }

    func on(_ event: Event<SamplerElement>) {
        parent.lock.performLocked {
            switch event {
            case .next, .completed:
                parent.sampleNow()
            case .error(let error):
                parent.forwardOn(.error(error))
                parent.dispose()
            }
        }
    }
}

private final class Sample<Element, SamplerElement>: Producer<Element> {
    let source: Observable<Element>
    let sampler: Observable<SamplerElement>
    let defaultValue: Element?

    init(source: Observable<Element>, sampler: Observable<SamplerElement>, defaultValue: Element?) {
        self.source = source
        self.sampler = sampler
        self.defaultValue = defaultValue
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = SampleSink(parent: self, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
