import Synchronization

extension ObservableType {
    /// Maps each element to an inner sequence with `selector` and merges the elements of all
    /// inner sequences. Completes when `self` and every inner sequence completed; fails with
    /// the first error of any of them.
    ///
    /// - parameter selector: Maps an element to its inner sequence.
    /// - returns: The merged sequence of the inner sequences' elements.
    @inlinable
    public func flatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        FlatMap(source: asObservable(), selector: selector)
    }
}

@usableFromInline
final class FlatMapSink<SourceElement, SourceSequence: ObservableConvertibleType, Observer: ObserverType>: Sink<Observer> where Observer.Element == SourceSequence.Element {
    @usableFromInline
    typealias Selector = (SourceElement) throws -> SourceSequence
    @usableFromInline
    typealias Inner = FlatMapInner<SourceElement, SourceSequence, Observer>

    @usableFromInline
    let selector: Selector
    /// Held while forwarding any event, so the observer gets one event at a time.
    @usableFromInline
    let lock = InlineRecursiveLock()
    /// Guarded by `lock`, as are the three below: the source completed. Written only by the
    /// source's events, so they may also read it without the lock.
    @usableFromInline
    @exclusivity(unchecked) var stopped = false
    /// The inner subscriptions that outlived their `subscribe` call and have not terminated
    /// (`Inner` objects). One that terminates during `subscribe` never joins.
    @usableFromInline
    @exclusivity(unchecked) var inners = SubjectObserverList()
    /// Inner subscriptions whose `subscribe` was running when the source completed (a
    /// reentrant completion); completion waits for them as for `inners`.
    @usableFromInline
    @exclusivity(unchecked) var pendingAtStop = 0
    /// Set by `dispose()`: no inner subscription may join `inners` after it.
    @usableFromInline
    @exclusivity(unchecked) var innersDisposed = false
    /// Inner `subscribe` calls running. Only touched by the source's events, which come one
    /// at a time (a reentrant one runs inside another on the same thread).
    @usableFromInline
    @exclusivity(unchecked) var subscribing = 0
    @usableFromInline
    let sourceSubscription = InlineSingleAssignmentDisposable()
    /// A slot whose inner sequence ended during its `subscribe`, kept for the next one. Taken
    /// and given back by the source's events only, which come one at a time: a plain field,
    /// no atomics. A kept slot does not hold this sink (`FlatMapInner.parentReference`), so
    /// there is no cycle for `dispose()` to break; the slot goes with the sink.
    @usableFromInline
    @exclusivity(unchecked) var spare: Inner?
    /// `inners` is not empty; stored under `lock` after each change, read without it.
    @usableFromInline
    let hasGroupedInners = Atomic<Bool>(false)
    /// The thread running `subscribeGeneral`, 0 when none (see `forwardsAlone`).
    @usableFromInline
    let subscribingThread = Atomic<UInt>(0)

    @inlinable @inline(__always)
    init(selector: @escaping Selector, observer: Observer, cancel: SinkDisposer) {
        self.selector = selector
        super.init(observer: observer, cancel: cancel)
    }

    /// Subscribes to the source; the sink's `dispose()` ends every subscription.
    @inlinable
    func run(_ source: Observable<SourceElement>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribeErased(AnyObserver(eventHandler: self.on)))
        return Disposables.create()
    }

    @inlinable
    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            let inner: Observable<Observer.Element>
            do {
                inner = try selector(element).asObservable()
            } catch {
                lock.performLocked {
                    forwardOn(.error(error))
                    dispose()
                }
                return
            }
            subscribeInner(consume inner)
        case .error(let error):
            lock.performLocked {
                forwardOn(.error(error))
                dispose()
            }
        case .completed:
            lock.performLocked {
                stopped = true
                pendingAtStop = subscribing
                if inners.isEmpty && pendingAtStop == 0 {
                    forwardOn(.completed)
                    dispose()
                } else {
                    sourceSubscription.dispose()
                }
            }
        }
    }

    /// Subscribes to an inner sequence. One that terminates during `subscribe` (a
    /// synchronous sequence) costs no lock beyond its events': it never joins `inners`.
    /// One still running afterwards joins them, or is disposed if the sink was meanwhile.
    @inlinable @inline(__always)
    func subscribeInner(_ source: consuming Observable<Observer.Element>) {
        if type(of: source) == Just<Observer.Element>.self {
            // A `just` inner sequence sends its element and completes during the subscription;
            // forwarding the element directly gives the same events without the subscription.
            // (`Just` is final: comparing the type is the cast, without a retained result.)
            let element = unsafeDowncast(source, to: Just<Observer.Element>.self).element
            lock.performLocked {
                if !innersDisposed {
                    forwardOn(.next(element))
                }
            }
            return
        }
        subscribeGeneral(consume source)
    }

    /// `subscribeInner` for a sequence other than `just` (kept out of line, so the `just`
    /// path stays small).
    @inlinable @inline(never)
    func subscribeGeneral(_ source: consuming Observable<Observer.Element>) {
        if isDisposed { return }
        let inner = takeSpare() ?? Inner(parent: self)
        subscribing += 1
        if subscribing == 1 {
            subscribingThread.store(currentThreadIdentifier(), ordering: .relaxed)
        }
        inner.start(source)
        subscribing -= 1
        if subscribing == 0 {
            subscribingThread.store(0, ordering: .relaxed)
        }
        if inner.hasTerminated {
            if stopped {
                // The source completed during the subscription; this one no longer holds it up.
                lock.performLocked {
                    pendingAtStop -= 1
                    completeIfDone()
                }
            }
            keepSpare(inner)
            return
        }
        // Still running after `subscribe` returned: it may forward after this call ends.
        inner.holdParent()
        let joined: Bool = lock.performLocked {
            if stopped { pendingAtStop -= 1 }
            if innersDisposed { return false }
            inners.insert(inner)
            hasGroupedInners.store(true, ordering: .releasing)
            if !inner.markGrouped() {
                // It terminated since `hasTerminated` was read; it left the group to us.
                _ = inners.remove(inner)
                hasGroupedInners.store(!inners.isEmpty, ordering: .releasing)
                completeIfDone()
            }
            return true
        }
        if !joined {
            inner.dispose()
        }
    }

    /// The kept slot, if there is one.
    @inlinable @inline(__always)
    func takeSpare() -> Inner? {
        spare.take()
    }

    /// Keeps `inner`, which terminated during its `subscribe`, for the next inner subscription
    /// if nothing else references it (its subscribe handler kept no observer, so no one can
    /// send it a late event) and it never held a disposable (`isReusable`).
    @inlinable @inline(__always)
    func keepSpare(_ inner: consuming Inner) {
        if !isKnownUniquelyReferenced(&inner) {
            // Its observer was kept: an event on another thread may still be using the sink
            // through it (a terminated slot drops every later one before reaching it).
            inner.holdParent()
            return
        }
        guard spare == nil, inner.isReusable else { return }
        inner.reset()
        spare = consume inner
    }

    /// Completes if the source and every inner subscription completed (called holding `lock`).
    @inlinable
    func completeIfDone() {
        if stopped && inners.isEmpty && pendingAtStop == 0 {
            forwardOn(.completed)
            dispose()
        }
    }

    /// A grouped inner sequence completed.
    @inlinable
    func innerCompleted(_ inner: Inner) {
        lock.performLocked {
            _ = inners.remove(inner)
            hasGroupedInners.store(!inners.isEmpty, ordering: .releasing)
            completeIfDone()
        }
    }

    /// `true` when an inner event may be forwarded without `lock`: it comes during its own
    /// subscription, the only one running, on the thread running the source's event, and no
    /// grouped inner subscription is left that could forward at the same time. The source's
    /// events come one at a time and only that thread groups inner subscriptions, so nothing
    /// else forwards. (`subscribing` is read only once on that thread.)
    @inlinable @inline(__always)
    func forwardsAlone() -> Bool {
        subscribingThread.load(ordering: .relaxed) == currentThreadIdentifier()
            && subscribing == 1
            && !hasGroupedInners.load(ordering: .acquiring)
    }

    /// Stops forwarding and ends the source and every inner subscription.
    @inlinable
    override func dispose() {
        super.dispose()
        let taken: SubjectObserverList? = lock.performLocked {
            if innersDisposed { return nil }
            innersDisposed = true
            let current = inners
            inners.removeAll()
            hasGroupedInners.store(false, ordering: .releasing)
            return current
        }
        sourceSubscription.dispose()
        guard let toDispose = taken else { return }
        if let first = toDispose.first {
            unsafeDowncast(first, to: Inner.self).dispose()
        }
        for inner in toDispose.rest ?? [] {
            unsafeDowncast(inner, to: Inner.self).dispose()
        }
    }
}

/// One inner subscription of a `flatMap`: forwards its events under the sink's lock and
/// holds its own subscription (set once, possibly after it was disposed).
@usableFromInline
final class FlatMapInner<SourceElement, SourceSequence: ObservableConvertibleType, Observer: ObserverType>: InnerSubscriptionSlot where Observer.Element == SourceSequence.Element {
    @usableFromInline
    typealias Parent = FlatMapSink<SourceElement, SourceSequence, Observer>

    /// Unretained, so a slot kept for reuse does not hold the sink that keeps it. It is alive
    /// whenever the slot uses it: only while the sink runs `subscribeGeneral` with this slot,
    /// or once `holdParent()` (called before that returns whenever the slot may be used later)
    /// made `parentHold` keep it. `ObservableFlatMapCreateInnerTests` cover each case.
    @usableFromInline
    let parentReference: Unmanaged<Parent>
    /// The sink, held once the slot may forward after its `subscribe` ended. Written by the
    /// source's events only, read by nothing but the slot's release.
    @usableFromInline
    @exclusivity(unchecked) var parentHold: Parent?

    @inlinable
    init(parent: Parent) {
        parentReference = Unmanaged.passUnretained(parent)
        super.init()
    }

    /// Keeps the sink alive for as long as this slot lives.
    @inlinable @inline(__always)
    func holdParent() {
        parentHold = parentReference.takeUnretainedValue()
    }

    /// Runs `body` with the sink, without retaining it (see `parentReference`).
    @inlinable @inline(__always)
    func withParent<Result>(_ body: (Parent) -> Result) -> Result {
        parentReference._withUnsafeGuaranteedRef(body)
    }

    /// Subscribes this slot to `source`.
    ///
    /// An `Observable.create` handler that may run now gets an observer made as the argument
    /// of that one call, which retains the slot once (made first and passed to `subscribe`,
    /// it cost two retains and two releases).
    @inlinable @inline(__always)
    func start(_ source: Observable<Observer.Element>) {
        if type(of: source) == AnonymousObservable<Observer.Element>.self, !CurrentThreadScheduler.isScheduleRequired {
            let handler = unsafeDowncast(source, to: AnonymousObservable<Observer.Element>.self).subscribeHandler
            setDisposable(handler(AnyObserver(eventHandler: on)))
            return
        }
        subscribe(source, AnyObserver(eventHandler: on))
    }

    @inlinable
    func on(_ event: Event<Observer.Element>) {
        switch event {
        case .next:
            if isStopped { return }
            withParent { parent in
                if parent.forwardsAlone() {
                    parent.forwardOn(event)
                    return
                }
                parent.lock.performLocked {
                    parent.forwardOn(event)
                }
            }
        case .error:
            guard Self.isLive(stop(disposing: false)) else { return }
            withParent { parent in
                parent.lock.performLocked {
                    parent.forwardOn(event)
                    parent.dispose()
                }
            }
            // The sink's `dispose()` reached this slot only if it had joined the group.
            dispose()
        case .completed:
            let previous = stop(disposing: true)
            // Not yet grouped: `subscribeInner` sees the termination and does the rest.
            if Self.isLive(previous) && previous & Self.grouped != 0 {
                withParent { $0.innerCompleted(self) }
            }
        }
    }
}

// Inlinable, not RxSwift's private form, for the rx-bench rows "flatMap x5 pumping" and "flatMap x5 creating".
@usableFromInline
final class FlatMap<SourceElement, SourceSequence: ObservableConvertibleType>: Producer<SourceSequence.Element> {
    @usableFromInline
    typealias Selector = (SourceElement) throws -> SourceSequence

    @usableFromInline
    let source: Observable<SourceElement>
    @usableFromInline
    let selector: Selector

    @inlinable
    init(source: Observable<SourceElement>, selector: @escaping Selector) {
        self.source = source
        self.selector = selector
        super.init(erasedRun: { producer, observer, cancel in
            let parent = unsafeDowncast(producer, to: FlatMap<SourceElement, SourceSequence>.self)
            let sink = parent.makeSink(observer, cancel: cancel)
            let subscription = sink.run(parent.source)
            return (sink: sink, subscription: subscription)
        })
    }

    /// Makes the sink, for both run paths: `erasedRun` and `run`.
    @inlinable @inline(__always)
    func makeSink<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> FlatMapSink<SourceElement, SourceSequence, Observer> where Observer.Element == SourceSequence.Element {
        FlatMapSink(selector: selector, observer: observer, cancel: cancel)
    }

    @inlinable
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == SourceSequence.Element {
        let sink = makeSink(observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}
