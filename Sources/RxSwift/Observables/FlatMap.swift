import CRxResources
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
    /// A slot whose inner sequence ended during its `subscribe`, kept with the observer that
    /// owns it for the next one. Taken and given back by the source's events only, which come
    /// one at a time: a plain field, no atomics. A kept slot does not hold this sink
    /// (`FlatMapInner.parentReference`), so there is no cycle for `dispose()` to break; the
    /// slot goes with the sink.
    @usableFromInline
    @exclusivity(unchecked) var spare: Inner.Owned?
    /// `inners` is not empty; stored under `lock` after each change, read without it.
    @usableFromInline
    let hasGroupedInners = Atomic<Bool>(false)

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
    /// path stays small). The slot is reached through its owning observer's reference
    /// (`FlatMapInner.Owned`), which lives until this returns or the slot is kept.
    @inlinable @inline(never)
    func subscribeGeneral(_ source: consuming Observable<Observer.Element>) {
        if isDisposed { return }
        let (observer, slot) = spare.take() ?? Inner.make(parent: self)
        subscribing += 1
        // Marks the slot as subscribing on this thread (`FlatMapInner.isSubscribingHere`).
        let outerSlot = rx_subscribing_slot_get()
        rx_subscribing_slot_set(slot.toOpaque())
        Inner.subscribe(slot, source, observer)
        rx_subscribing_slot_set(outerSlot)
        subscribing -= 1
        if slot._withUnsafeGuaranteedRef({ $0.hasTerminated }) {
            if stopped {
                // The source completed during the subscription; this one no longer holds it up.
                lock.performLocked {
                    pendingAtStop -= 1
                    completeIfDone()
                }
            }
            keepSpare(observer, slot)
            return
        }
        // Still running after `subscribe` returned: it may forward after this call ends.
        // `observer` keeps the slot alive until the group holds it (or it is disposed).
        withExtendedLifetime(observer) {
            let inner = slot.takeUnretainedValue()
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
    }

    /// Keeps `slot`, which terminated during its `subscribe`, with its `observer` for the next
    /// inner subscription if nothing else references it (its subscribe handler kept no
    /// observer, so no one can send it a late event) and it never held a disposable
    /// (`isReusable`); otherwise the slot lives as long as copies of its observer.
    @inlinable @inline(__always)
    func keepSpare(_ observer: consuming AnyObserver<Observer.Element>, _ slot: Unmanaged<Inner>) {
        if !Inner.isOwnedByObserverAlone(slot) {
            // Its observer was kept: an event on another thread may still be using the sink
            // through it (a terminated slot drops every later one before reaching it).
            slot._withUnsafeGuaranteedRef { $0.holdParent() }
            return
        }
        guard spare == nil, slot._withUnsafeGuaranteedRef({ $0.isReusable }) else { return }
        slot._withUnsafeGuaranteedRef { $0.reset() }
        spare = (consume observer, slot)
    }

    /// Completes if the source and every inner subscription completed (called holding `lock`).
    @inlinable
    func completeIfDone() {
        if stopped && inners.isEmpty && pendingAtStop == 0 {
            forwardOn(.completed)
            dispose()
        }
    }

    /// Forwards an inner element under `lock` (out of line: the common synchronous inner
    /// forwards without it, `forwardsAlone`).
    @inlinable @inline(never)
    func forwardLocked(_ event: Event<Observer.Element>) {
        lock.performLocked {
            forwardOn(event)
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

    /// `true` when an event of `inner` may be forwarded without `lock`: it comes during the
    /// slot's own subscription, on the thread running it (the source's event), that
    /// subscription the only one running, and no grouped inner subscription is left that
    /// could forward at the same time. The source's events come one at a time and only that
    /// thread groups inner subscriptions, so nothing else forwards.
    @inlinable @inline(__always)
    func forwardsAlone(_ inner: Inner) -> Bool {
        inner.isSubscribingHere
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
