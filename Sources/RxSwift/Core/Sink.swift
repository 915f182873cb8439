import Synchronization

/// The part of an operator that lives for one subscription: it receives the source's
/// events, transforms them and forwards them to `observer`.
///
/// `forwardOn` drops events once the sink is disposed. `dispose()` disposes `cancel`, the
/// `SinkDisposer` the producer made for this subscription, which disposes the sink and its
/// upstream subscription.
@usableFromInline
class Sink<Observer: ObserverType>: SinkBase {
    @usableFromInline
    let observer: Observer
    @usableFromInline
    let cancel: SinkDisposer
    @usableFromInline
    let disposed = Atomic<Bool>(false)

    #if DEBUG
    private let synchronizationTracker = SynchronizationTracker()
    #endif

    @inlinable @inline(__always)
    init(observer: Observer, cancel: SinkDisposer) {
        self.observer = observer
        self.cancel = cancel
        super.init()
        Resources.add(1)
    }

    /// Sends `event` downstream unless the sink was disposed.
    @inlinable
    final func forwardOn(_ event: Event<Observer.Element>) {
        #if DEBUG
        trackForwardBegin()
        defer { trackForwardEnd() }
        #endif
        if disposed.load(ordering: .relaxed) {
            return
        }
        observer.on(event)
    }

    #if DEBUG
    @usableFromInline
    final func trackForwardBegin() {
        synchronizationTracker.register()
    }

    @usableFromInline
    final func trackForwardEnd() {
        synchronizationTracker.unregister()
    }
    #endif

    /// An observer that forwards to `forwardOn` (for inner subscriptions that must not be
    /// able to dispose the sink).
    @inlinable
    final func forwarder() -> SinkForward<Observer> {
        SinkForward(forward: self)
    }

    /// `true` once disposed.
    @inlinable
    final var isDisposed: Bool {
        disposed.load(ordering: .relaxed)
    }

    /// Stops forwarding and disposes the subscription.
    @inlinable
    override func dispose() {
        disposed.store(true, ordering: .relaxed)
        cancel.dispose()
    }

    deinit {
        Resources.add(-1)
    }
}

/// Forwards events to a sink's `forwardOn`, disposing the sink on a terminal event.
@usableFromInline
struct SinkForward<Observer: ObserverType>: ObserverType {
    @usableFromInline
    typealias Element = Observer.Element

    @usableFromInline
    let forward: Sink<Observer>

    @inlinable
    init(forward: Sink<Observer>) {
        self.forward = forward
    }

    @inlinable
    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forward.observer.on(event)
        case .error, .completed:
            forward.observer.on(event)
            forward.cancel.dispose()
        }
    }
}
