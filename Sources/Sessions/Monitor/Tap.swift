import RxSwift
import Synchronization

/// A switchable side channel out of a session: a hot sequence of the values recorded
/// with `record(_:)` (the session's marbles) while someone observes it, and nothing at
/// all otherwise. It lives here, not in RxSwift, whose public surface stays RxSwift's.
///
/// Cost when nobody observes: a recorded event costs one relaxed atomic load; the value
/// is not made (its closure never runs) and nothing is allocated. Observers get the values
/// on the thread that recorded them; `finish()` completes every observer.
final class Tap<Value>: ObservableType, @unchecked Sendable {  // `subject` and `finished` are guarded by `lock`; `observers` and `recording` are atomic
    typealias Element = Value

    private let lock = Mutex(())
    // `finished` shares the lock's word: 48 bytes with `recording`, a 64-byte malloc block (`SessionsLayoutTests`);
    // only a watched or recorded session has a tap.
    @exclusivity(unchecked) private var finished = false
    /// Made by the first observer: a tap nobody ever observes stays this small.
    @exclusivity(unchecked) private var subject: PublishSubject<Value>?
    private let observers = Atomic<Int>(0)
    /// The session's recording (`--record`), set at most once; it rides on the tap, which a
    /// recorded session has from its open, so that a session holds no word more for it. The
    /// session writes to it directly, not through marbles; `finish()` finishes it.
    let recording = AtomicRetainedReference<SessionRecording>()

    /// A tap nobody observes yet.
    init() {}

    /// Whether someone observes the tap now: recording is free while this is false.
    var isObserved: Bool { observers.load(ordering: .relaxed) > 0 }

    /// Sends the value `make` builds to the current observers; `make` runs only when there are some.
    /// Inlined into the caller, so an unobserved record is a load and a branch there.
    @inline(__always)
    func record(_ make: @autoclosure () -> Value) {
        guard isObserved else { return }
        deliver(make())
    }

    private func deliver(_ value: Value) {
        lock.withLock { _ in subject }?.on(.next(value))
    }

    /// Completes every observer, now and later: the tapped streams are gone.
    func finish() {
        let subject: PublishSubject<Value>? = lock.withLock { _ in
            finished = true
            return self.subject
        }
        recording.sealIfEmpty()?.finish()
        subject?.on(.completed)
    }

    /// Subscribes `observer` to the values recorded from now on.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Value {
        let subject: PublishSubject<Value> = lock.withLock { _ in
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
