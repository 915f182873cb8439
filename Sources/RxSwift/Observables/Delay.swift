#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch

extension ObservableType {
    /// Shifts every element and the completion of `self` later by `dueTime`, on `scheduler`.
    /// Errors are not delayed: they are sent at once and drop the elements still waiting.
    ///
    /// - parameter dueTime: The delay.
    /// - parameter scheduler: The scheduler the delayed events are sent on.
    /// - returns: The delayed sequence.
    @inlinable
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Delay(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

/// RxSwift's delay: each drain sends the oldest waiting event, then schedules the next drain
/// for when the next event is due (at once if it is late; on a real-clock scheduler a late
/// event is sent by the same drain, `nextStep`). Errors skip the queue: sent at
/// once, or, while the drain is sending an event, right after it. Events are sent and the
/// sink disposed only outside the lock, so an error arriving during a delivery never waits
/// for the observer.
///
/// A drain schedules the next one itself and keeps its disposable under `lock` (disposal
/// cancels it): `scheduleRecursive`'s group, boxes and disposables cost more than the rest
/// of a delayed element.
///
/// The two oldest waiting events are kept in the sink, the rest in an array: a delayed
/// element and the completion after it (a delayed `just`, the login example's answer) need
/// no array. `Waiting` is `(arrived:event:)?`, a parameter of the sink so that its
/// unspecialised deinit finds the slots' metadata in the sink's (`LatestElementSlot`).
@usableFromInline
final class DelaySink<Observer: ObserverType, Waiting: LatestElementSlot>: Sink<Observer>
    where Waiting.Wrapped == (arrived: RxTime, event: Event<Observer.Element>) {
    @usableFromInline
    typealias Element = Observer.Element

    /// What the drain does next, decided under the lock and done after releasing it.
    @usableFromInline
    enum DrainStep {
        case forward(Event<Element>)
        case fail(Swift.Error)
        case reschedule(after: TimeInterval)
        case stop
    }

    @usableFromInline
    let dueTime: RxTimeInterval
    @usableFromInline
    let scheduler: SchedulerType
    @usableFromInline
    let lock = RxLock(())
    /// Guarded by `lock`, as the two below: the oldest event waiting, with the time it arrived;
    /// nil only when none waits.
    @usableFromInline
    @exclusivity(unchecked) var oldest: Waiting = nil
    /// The event after it; nil only when at most one waits.
    @usableFromInline
    @exclusivity(unchecked) var next: Waiting = nil
    /// The events after those two, from `laterHead` on.
    @usableFromInline
    @exclusivity(unchecked) var later: [(arrived: RxTime, event: Event<Element>)] = []
    @usableFromInline
    @exclusivity(unchecked) var laterHead = 0
    /// Guarded by `lock`: a drain is scheduled or running.
    @usableFromInline
    @exclusivity(unchecked) var active = false
    /// Guarded by `lock`: the drain is sending events right now.
    @usableFromInline
    @exclusivity(unchecked) var running = false
    /// Guarded by `lock`: the source's error; sent by the drain if it was running. An error,
    /// not its event: destroying an `Event<Element>?` in the unspecialised deinit looks up
    /// two metadata.
    @usableFromInline
    @exclusivity(unchecked) var sourceError: Swift.Error?
    @usableFromInline
    let sourceSubscription = InlineSingleAssignmentDisposable()
    /// The arrival recorded for the event that starts a drain: never read.
    @usableFromInline
    static var untimed: RxTime { RxTime(timeIntervalSinceReferenceDate: 0) }
    /// Guarded by `lock`: the latest drain scheduled (pending, or the one running), as a
    /// class reference (`disposableObject(_:)`): dropping it is a release, not a call
    /// through the `Optional<Disposable>` value witnesses.
    @usableFromInline
    @exclusivity(unchecked) var drainSubscription: (AnyObject & Disposable)?

    @inlinable
    init(observer: Observer, cancel: SinkDisposer, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    /// Subscribes to `source`; the sink's `dispose()` ends the subscription and the pending drain.
    @inlinable
    func run(source: Observable<Element>) -> Disposable {
        sourceSubscription.setDisposable(object: source.subscribeErasedObject(AnyObserver(eventHandler: self.on)))
        return Disposables.create()
    }

    @inlinable
    func on(_ event: Event<Element>) {
        if event.isStopEvent {
            sourceSubscription.dispose()
        }
        switch event {
        case .error(let error):
            let sendNow: Bool = lock.performLocked {
                removeAllWaiting()
                sourceError = error
                return !running
            }
            if sendNow {
                forwardOn(event)
                dispose()
            }
        case .next, .completed:
            let startDrain: Bool = lock.performLocked {
                // Only an event that waits behind another is timed: the one that starts a
                // drain is sent by it whatever its arrival (`nextStep`), so it skips the clock.
                enqueue((arrived: active ? scheduler.now : Self.untimed, event: event))
                if active { return false }
                active = true
                return true
            }
            if startDrain {
                scheduleDrain(after: dueTime)
            }
        }
    }

    /// Runs `drain()` on the scheduler after `dueTime`. The drain it replaces has run (one
    /// drain is scheduled or running at a time), so it is dropped, not disposed.
    @inlinable
    func scheduleDrain(after dueTime: RxTimeInterval) {
        // The sink is the state, so the closure captures nothing: no box per drain.
        let scheduled = disposableObject(scheduler.scheduleRelative(self, dueTime: dueTime) { sink in
            // A scheduler may still run work disposed while it was starting.
            if !sink.isDisposed {
                sink.drain()
            }
            return Disposables.create()
        })
        // `dispose()` sets the flag before it takes the drain under the lock: a drain
        // scheduled after that is disposed here.
        let keep: Bool = lock.performLocked {
            if isDisposed { return false }
            drainSubscription = scheduled
            return true
        }
        if !keep {
            scheduled?.dispose()
        }
    }

    @inlinable
    func drain() {
        let failed: Bool = lock.performLocked {
            if sourceError == nil { running = true }
            return sourceError != nil
        }
        if failed { return }
        var sentOne = false
        while true {
            switch nextStep(sentOne: sentOne) {
            case .forward(let event):
                sentOne = true
                forwardOn(event)
                if event.isStopEvent {
                    dispose()
                    return
                }
            case .fail(let error):
                forwardOn(.error(error))
                dispose()
                return
            case .reschedule(let seconds):
                scheduleDrain(after: .nanoseconds(Int(min(seconds * 1_000_000_000, Double(Int.max / 2)).rounded())))
                return
            case .stop:
                return
            }
        }
    }

    /// The first step of a drain sends the oldest event; the next one schedules the drain
    /// of the event after it. On the real clock an event already due is sent by the same
    /// drain (`SchedulerClock`): RxSwift schedules its drain at no delay, whose turn among
    /// other due work nothing orders. On virtual time that drain runs a tick later, as
    /// RxSwift's, and so does the event.
    @inlinable
    func nextStep(sentOne: Bool) -> DrainStep {
        lock.performLocked {
            if let sourceError {
                return .fail(sourceError)
            }
            if let waiting = oldest.element {
                if !sentOne {
                    dequeue()
                    return .forward(waiting.event)
                }
                // Disposed by the event just sent: no drain to schedule.
                if isDisposed {
                    running = false
                    return .stop
                }
                let wait = dueTime.rxSeconds - scheduler.now.timeIntervalSince(waiting.arrived)
                if wait <= 0 && SchedulerClock.isReal(scheduler) {
                    dequeue()
                    return .forward(waiting.event)
                }
                running = false
                return .reschedule(after: max(0, wait))
            }
            running = false
            active = false
            return .stop
        }
    }

    /// Under `lock`: `waiting` joins the end of the queue.
    @inlinable
    func enqueue(_ waiting: (arrived: RxTime, event: Event<Element>)) {
        if oldest.element == nil {
            oldest = Waiting(waiting)
        } else if next.element == nil {
            next = Waiting(waiting)
        } else {
            later.append(waiting)
        }
    }

    /// Under `lock`: the oldest event leaves the queue (there is one).
    @inlinable
    func dequeue() {
        oldest = next
        if laterHead < later.count {
            next = Waiting(later[laterHead])
            laterHead += 1
            if laterHead == later.count {
                later.removeAll(keepingCapacity: true)
                laterHead = 0
            }
        } else {
            next = nil
        }
    }

    /// Under `lock`: the queue is emptied (an error drops what waits).
    @inlinable
    func removeAllWaiting() {
        oldest = nil
        next = nil
        later.removeAll()
        laterHead = 0
    }

    /// Stops forwarding and ends the source subscription and the pending drain.
    @inlinable
    override func dispose() {
        super.dispose()
        sourceSubscription.dispose()
        let drain: (AnyObject & Disposable)? = lock.performLocked { drainSubscription.take() }
        drain?.dispose()
    }
}

// Inlinable, not RxSwift's private form, for the callgrind-sessions measure "login": with an
// erased run, the login example's `just(true).delay(...)` runs specialised in the view
// model's module (see `Producer.ErasedRun`).
@usableFromInline
final class Delay<Element>: Producer<Element> {
    @usableFromInline
    let source: Observable<Element>
    @usableFromInline
    let dueTime: RxTimeInterval
    @usableFromInline
    let scheduler: SchedulerType

    @inlinable
    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(erasedRun: { producer, observer, cancel in
            unsafeDowncast(producer, to: Delay<Element>.self).runSink(observer, cancel: cancel)
        })
    }

    /// Makes the sink and subscribes it to the source, for both run paths: `erasedRun` and `run`.
    @inlinable @inline(__always)
    func runSink<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = DelaySink<Observer, (arrived: RxTime, event: Event<Element>)?>(
            observer: observer, cancel: cancel, dueTime: dueTime, scheduler: scheduler)
        return (sink: sink, subscription: sink.run(source: source))
    }

    @inlinable
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let (sink, subscription) = runSink(observer, cancel: cancel)
        return (sink: sink, subscription: subscription)
    }
}
