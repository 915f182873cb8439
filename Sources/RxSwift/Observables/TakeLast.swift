extension ObservableType {
    /// Sends the last `count` elements when the source completes (nothing before that).
    ///
    /// - parameter count: How many of the last elements to send.
    /// - returns: A sequence of at most `count` elements, sent at completion.
    public func takeLast(_ count: Int) -> Observable<Element> {
        if count < 0 {
            rxFatalError("takeLast: count can't be negative")
        }
        return TakeLast(source: asObservable(), count: count)
    }
}

private final class TakeLastSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let count: Int
    /// Only touched by `on`, which the source calls one event at a time: a ring buffer of
    /// the last `count` elements, the oldest at `head` once it is full.
    private var buffer: [Element] = []
    private var head = 0

    init(count: Int, observer: Observer, cancel: SinkDisposer) {
        self.count = count
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard count > 0 else { return }
            if buffer.count < count {
                buffer.append(element)
            } else {
                buffer[head] = element
                head = (head + 1) % count
            }
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            for offset in 0..<buffer.count {
                forwardOn(.next(buffer[(head + offset) % buffer.count]))
            }
            forwardOn(.completed)
            dispose()
        }
    }
}

private final class TakeLast<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let count: Int

    init(source: Observable<Element>, count: Int) {
        self.source = source
        self.count = count
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = TakeLastSink(count: count, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
