import Synchronization

/// Stands between a subject and a new observer that is still being sent what the subject
/// holds (a `ReplaySubject`'s buffer, a `BehaviorSubject`'s value), which the subject sends
/// after releasing its lock: live events arriving meanwhile, from the observer itself or from
/// other threads, wait here and follow in order. Once open, events pass with one atomic load.
final class SubscriptionGate<Element> {
    private let observer: (Event<Element>) -> Void
    /// Set once the held events were sent; from then on events pass straight through.
    private let isOpen = Atomic<Bool>(false)
    private let lock = RxLock(())
    /// Guarded by `lock`: live events that arrived before the gate opened.
    private var held: [Event<Element>] = []

    init(_ observer: @escaping (Event<Element>) -> Void) {
        self.observer = observer
    }

    func on(_ event: Event<Element>) {
        if isOpen.load(ordering: .acquiring) {
            observer(event)
            return
        }
        let passes: Bool = lock.performLocked {
            if isOpen.load(ordering: .relaxed) {
                return true
            }
            held.append(event)
            return false
        }
        if passes {
            observer(event)
        }
    }

    /// Sends the held events, then lets live events through.
    func open() {
        while true {
            let batch: [Event<Element>] = lock.performLocked {
                let batch = held
                held.removeAll()
                if batch.isEmpty {
                    isOpen.store(true, ordering: .releasing)
                }
                return batch
            }
            if batch.isEmpty { return }
            for event in batch {
                observer(event)
            }
        }
    }
}
