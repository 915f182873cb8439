import Synchronization

/// Base class of operators: `subscribe` makes a `SinkDisposer`, calls `run(_:cancel:)` and
/// hands the disposer the sink and the subscription `run` returns.
///
/// When the current thread has no `CurrentThreadScheduler` trampoline running, the
/// subscription runs on a new trampoline, so that recursive scheduling made during the
/// subscription is queued rather than nested.
///
/// Speed: a producer may also be built with an `ErasedRun`, a closure that makes its sink for
/// an observer erased to `AnyObserver`. Hot operators create it in their `@inlinable`
/// initialiser, so in optimised client code the closure, the sink and the observers it hands
/// upstream are specialised for concrete element types; events then travel through direct
/// calls and closures instead of unspecialised generic code (whose metadata look-ups were
/// RxSwift's main cost). `subscribeErased` uses it; `subscribe(_:)` keeps using `run`.
@usableFromInline
class Producer<Element>: Observable<Element> {
    /// Makes the sink for an erased observer: `(producer, observer, cancel) -> (sink, subscription)`.
    /// It captures nothing, so creating it allocates nothing. The sink comes as a `SinkBase`
    /// (every operator's sink is one), so the disposer keeps it without a cast.
    @usableFromInline
    typealias ErasedRun = (Producer<Element>, AnyObserver<Element>, SinkDisposer) -> (sink: SinkBase, subscription: Disposable)

    @usableFromInline
    let erasedRun: ErasedRun?

    @inlinable
    override init() {
        erasedRun = nil
        super.init()
    }

    @inlinable
    init(erasedRun: @escaping ErasedRun) {
        self.erasedRun = erasedRun
        super.init()
    }

    @inlinable
    override func subscribeErased(_ observer: AnyObserver<Element>) -> Disposable {
        guard let erasedRun else {
            return subscribe(observer)
        }
        if !CurrentThreadScheduler.isScheduleRequired {
            return runErased(erasedRun, observer)
        } else {
            return CurrentThreadScheduler.instance.schedule(()) { _ in self.runErased(erasedRun, observer) }
        }
    }

    @inlinable
    override func subscribeErasedObject(_ observer: AnyObserver<Element>) -> (AnyObject & Disposable)? {
        guard let erasedRun else {
            return disposableObject(subscribeErased(observer))
        }
        if !CurrentThreadScheduler.isScheduleRequired {
            return runErased(erasedRun, observer)
        }
        // What `subscribeErased` schedules, run at once as it would be, keeping the disposer's
        // type: no scheduled closure and no conversion back from `Disposable`.
        return CurrentThreadScheduler.runAsTrampoline { runErased(erasedRun, observer) }
    }

    /// Makes the disposer, runs `erasedRun` and hands the disposer what it made.
    @inlinable @inline(__always)
    func runErased(_ erasedRun: ErasedRun, _ observer: AnyObserver<Element>) -> SinkDisposer {
        let disposer = SinkDisposer()
        // Destructured, so the two existentials move into the disposer without copies.
        let (sink, subscription) = erasedRun(self, observer, disposer)
        disposer.setSinkAndSubscription(sink: consume sink, subscription: consume subscription)
        return disposer
    }

    @inlinable
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        if !CurrentThreadScheduler.isScheduleRequired {
            let disposer = SinkDisposer()
            let (sink, subscription) = run(observer, cancel: disposer)
            disposer.setSinkAndSubscription(sink: consume sink, subscription: consume subscription)
            return disposer
        } else {
            return CurrentThreadScheduler.instance.schedule(()) { _ in
                let disposer = SinkDisposer()
                let (sink, subscription) = self.run(observer, cancel: disposer)
                disposer.setSinkAndSubscription(sink: consume sink, subscription: consume subscription)
                return disposer
            }
        }
    }

    /// Makes the sink for `observer` and subscribes it to the sources. Abstract.
    ///
    /// - returns: the sink and the subscription to the sources; both are disposed when
    ///   `cancel` is disposed.
    @usableFromInline
    func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        rxAbstractMethod()
    }
}

/// The disposable `Producer.subscribe` returns: disposes the sink and its subscription once,
/// whether `dispose()` comes before or after they are set. `package`: a session keeps its
/// output's disposer by this class (`Sessions`' `OutputDisposal`), one word where a class
/// existential takes two.
@usableFromInline
package final class SinkDisposer: Cancelable {
    @usableFromInline
    static var disposedFlag: UInt { 1 }
    @usableFromInline
    static var sinkAndSubscriptionSetFlag: UInt { 2 }
    @usableFromInline
    static var flagBits: UInt { 3 }

    /// The flags in bits 0 and 1, and the sink's address (a `SinkBase`, retained by the word
    /// from when the set flag is published until the thread that sees both flags first takes
    /// it; objects are 16-byte aligned) in the rest. The sink shares the flags' word, so the
    /// disposer is 40 bytes in a 48-byte malloc block, not 56 in a 64-byte one (`RxLayoutTests`).
    @usableFromInline
    let state = Atomic<UInt>(0)
    /// Set before the set flag is published; nil when unset, taken or a `NopDisposable`. A
    /// class existential (`disposableObject(_:)`): 16 bytes where a `Disposable` takes 40.
    @usableFromInline
    @exclusivity(unchecked) var subscription: (AnyObject & Disposable)?

    @inlinable
    init() {}

    @inlinable
    package var isDisposed: Bool {
        state.load(ordering: .acquiring) & Self.disposedFlag != 0
    }

    @inlinable @inline(__always)
    func setSinkAndSubscription(sink: consuming AnyObject & Disposable, subscription: consuming Disposable) {
        setSinkAndSubscription(sink: SinkBase.of(sink), subscription: subscription)
    }

    /// `setSinkAndSubscription(sink:subscription:)` for a sink known to be a `SinkBase` (an
    /// erased run's): no dynamic cast to find out.
    @inlinable @inline(__always)
    func setSinkAndSubscription(sink: consuming SinkBase, subscription: consuming Disposable) {
        if state.load(ordering: .acquiring) & Self.disposedFlag != 0 {
            // Disposed during `run` (typically a sequence that ended synchronously): `dispose()`
            // has already run and will not look at the fields, so they need not be stored.
            let previous = state.bitwiseOr(Self.sinkAndSubscriptionSetFlag, ordering: .acquiringAndReleasing).oldValue
            if previous & Self.sinkAndSubscriptionSetFlag != 0 {
                rxFatalError("Sink and subscription were already set")
            }
            sink.dispose()
            subscription.dispose()
            return
        }
        self.subscription = disposableObject(subscription)
        let address = UInt(bitPattern: Unmanaged.passRetained(sink).toOpaque())
        assert(address & Self.flagBits == 0, "an object's address has free low bits")
        let previous = state.bitwiseOr(address | Self.sinkAndSubscriptionSetFlag, ordering: .acquiringAndReleasing).oldValue
        if previous & Self.sinkAndSubscriptionSetFlag != 0 {
            rxFatalError("Sink and subscription were already set")
        }
        if previous & Self.disposedFlag != 0 {
            disposeSinkAndSubscription(address)
        }
    }

    @inlinable
    package func dispose() {
        // Already disposed, as when a sink the disposer is disposing disposes it back: a load
        // instead of a read-modify-write (atomic, a bus lock) once per operator.
        if state.load(ordering: .acquiring) & Self.disposedFlag != 0 {
            return
        }
        let previous = state.bitwiseOr(Self.disposedFlag, ordering: .acquiringAndReleasing).oldValue
        if previous & Self.disposedFlag != 0 {
            return
        }
        if previous & Self.sinkAndSubscriptionSetFlag != 0 {
            disposeSinkAndSubscription(previous)
        }
    }

    /// Takes the sink (the word `value`'s address, with the word's retain) and the
    /// subscription, and disposes them.
    @inlinable
    func disposeSinkAndSubscription(_ value: UInt) {
        let subscription = self.subscription.take()
        if let address = UnsafeRawPointer(bitPattern: value & ~Self.flagBits) {
            Unmanaged<SinkBase>.fromOpaque(address).takeRetainedValue().dispose()
        }
        subscription?.dispose()
    }

    deinit {
        // Set and never disposed: the word still holds the sink's retain.
        let value = state.load(ordering: .acquiring)
        if value & Self.disposedFlag == 0, let address = UnsafeRawPointer(bitPattern: value & ~Self.flagBits) {
            Unmanaged<SinkBase>.fromOpaque(address).release()
        }
    }
}
