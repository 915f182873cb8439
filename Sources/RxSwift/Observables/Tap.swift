import Synchronization

/// A switchable side channel out of one or more streams: a hot sequence of the values
/// recorded at its tap points (`tap(_:_:)` on a stream, or `record(_:)`) while someone
/// observes it, and nothing at all otherwise.
///
/// Cost when nobody observes: a recorded event costs one relaxed atomic load; the value
/// is not made (its closure never runs) and nothing is allocated. Observers get the values
/// on the thread that recorded them; `finish()` completes every observer.
public final class Tap<Value>: ObservableType, @unchecked Sendable {  // `subject` and `finished` are guarded by `lock`; `observers` is atomic
    public typealias Element = Value

    private let lock = RxLock(())
    // `finished` shares the lock's word: 40 bytes, a 48-byte malloc block.
    @exclusivity(unchecked) private var finished = false
    /// Made by the first observer: a tap nobody ever observes stays this small.
    @exclusivity(unchecked) private var subject: PublishSubject<Value>?
    @usableFromInline
    let observers = Atomic<Int>(0)

    /// A tap nobody observes yet.
    public init() {}

    /// Whether someone observes the tap now: recording is free while this is false.
    @inlinable
    public var isObserved: Bool { observers.load(ordering: .relaxed) > 0 }

    /// Sends the value `make` builds to the current observers; `make` runs only when there are some.
    /// Inlined into the caller, so an unobserved record is a load and a branch there.
    @inlinable
    public func record(_ make: @autoclosure () -> Value) {
        guard isObserved else { return }
        deliver(make())
    }

    @usableFromInline
    func deliver(_ value: Value) {
        lock.performLocked { subject }?.on(.next(value))
    }

    /// Completes every observer, now and later: the tapped streams are gone.
    public func finish() {
        let subject: PublishSubject<Value>? = lock.performLocked {
            finished = true
            return self.subject
        }
        subject?.on(.completed)
    }

    /// Subscribes `observer` to the values recorded from now on.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Value {
        let subject: PublishSubject<Value> = lock.performLocked {
            if let subject = self.subject { return subject }
            let subject = PublishSubject<Value>()
            if finished { subject.on(.completed) }  // no observers yet: nothing runs under the lock
            self.subject = subject
            return subject
        }
        observers.wrappingAdd(1, ordering: .relaxed)
        let subscription = subject.subscribe(observer)
        return Disposables.create { [self] in
            subscription.dispose()
            observers.wrappingSubtract(1, ordering: .relaxed)
        }
    }
}

extension ObservableType {
    /// Passes every event through unchanged and, while `tap` is observed, also records
    /// `transform(event)` into it (a marble of a lane, say). While nobody observes `tap`
    /// an event costs one relaxed atomic load more and `transform` never runs.
    ///
    /// - parameter tap: Where the recorded values go.
    /// - parameter transform: Makes the recorded value of an event; runs only while `tap` is observed.
    /// - returns: The source sequence, unchanged.
    @inlinable
    public func tap<Value>(_ tap: Tap<Value>, _ transform: @escaping (Event<Element>) -> Value) -> Observable<Element> {
        Tapped(source: asObservable(), tap: tap, transform: transform)
    }

    /// Passes every event through unchanged and, while `tap` is observed, also records the event into it.
    ///
    /// - parameter tap: Where the events go.
    /// - returns: The source sequence, unchanged.
    @inlinable
    public func tap(_ tap: Tap<Event<Element>>) -> Observable<Element> {
        self.tap(tap) { $0 }
    }
}

// Internal and inlinable rather than private, like `map`'s: the erased run specialises the
// sink in client code, so the source's events reach it without generic metadata look-ups.
@usableFromInline
final class TapSink<Observer: ObserverType, Value>: Sink<Observer>, ObserverType {
    @usableFromInline
    typealias Element = Observer.Element

    @usableFromInline
    let tap: Tap<Value>
    @usableFromInline
    let transform: (Event<Element>) -> Value

    @inlinable
    init(tap: Tap<Value>, transform: @escaping (Event<Element>) -> Value, observer: Observer, cancel: SinkDisposer) {
        self.tap = tap
        self.transform = transform
        super.init(observer: observer, cancel: cancel)
    }

    @inlinable
    func on(_ event: Event<Element>) {
        if tap.isObserved {
            tap.deliver(transform(event))
        }
        forwardOn(event)
        if event.isStopEvent {
            dispose()
        }
    }
}

@usableFromInline
final class Tapped<Element, Value>: Producer<Element> {
    @usableFromInline
    let source: Observable<Element>
    @usableFromInline
    let tap: Tap<Value>
    @usableFromInline
    let transform: (Event<Element>) -> Value

    @inlinable
    init(source: Observable<Element>, tap: Tap<Value>, transform: @escaping (Event<Element>) -> Value) {
        self.source = source
        self.tap = tap
        self.transform = transform
        super.init(erasedRun: { producer, observer, cancel in
            let parent = unsafeDowncast(producer, to: Tapped<Element, Value>.self)
            let sink = TapSink(tap: parent.tap, transform: parent.transform, observer: observer, cancel: cancel)
            let subscription = parent.source.subscribeErased(AnyObserver(eventHandler: sink.on))
            return (sink: sink, subscription: subscription)
        })
    }

    @inlinable
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = TapSink(tap: tap, transform: transform, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
