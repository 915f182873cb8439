/// A subject that replays buffered elements (all, or the last `bufferSize`) and the terminal
/// event to new observers, then sends them the later events.
public class ReplaySubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, SubjectSubscriptionOwner {
    /// The observer side is the subject itself.
    public typealias SubjectObserverType = ReplaySubject<Element>

    /// Guards the state below; never held while sending events.
    private let lock = RxLock(())
    private let bufferSize: Int?
    /// Guarded by `lock`, as are the ones below.
    private var buffer: [Element] = []
    /// Index of the oldest element kept in `buffer`.
    private var bufferStart = 0
    private var observers = SubjectObserverList()
    /// Set by the terminal event; `stoppedError` is its error, if any.
    private var stopped = false
    private var stoppedError: Swift.Error?
    private var disposed = false

    #if DEBUG
    private let synchronizationTracker = SynchronizationTracker()
    #endif

    fileprivate init(bufferSize: Int?) {
        self.bufferSize = bufferSize
        super.init()
    }

    /// A subject replaying at most the last `bufferSize` elements.
    public static func create(bufferSize: Int) -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: max(bufferSize, 0))
    }

    /// A subject replaying every element (RxSwift's name; its memory grows with every element).
    public static func createUnbounded() -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: nil)
    }

    /// The spelling `ReplayRelay` uses; RxSwift's `ReplaySubject` only has `createUnbounded()`.
    @available(*, deprecated, renamed: "createUnbounded()")
    public static func createUnbound() -> ReplaySubject<Element> {
        createUnbounded()
    }

    /// `true` while at least one observer is subscribed.
    public var hasObservers: Bool { lock.performLocked { !observers.isEmpty } }

    /// `true` once disposed.
    public var isDisposed: Bool { lock.performLocked { disposed } }

    /// Buffers a `next` element and sends `event` to the observers.
    public func on(_ event: Event<Element>) {
        #if DEBUG
        synchronizationTracker.register()
        defer { synchronizationTracker.unregister() }
        #endif
        var snapshot = SubjectObserverList()
        var terminated = false
        lock.performLocked {
            guard !disposed && !stopped else { return }
            switch event {
            case .next(let value):
                append(value)
                snapshot = observers
            case .error(let error):
                stopped = true
                stoppedError = error
                snapshot = observers.takeAll()
                terminated = true
            case .completed:
                stopped = true
                snapshot = observers.takeAll()
                terminated = true
            }
        }
        if terminated {
            snapshot.detachAll()
        }
        dispatch(first: snapshot.first, rest: snapshot.rest, event)
    }

    /// Adds `value` to the buffer, dropping the oldest beyond `bufferSize` (called holding `lock`).
    private func append(_ value: Element) {
        guard let bufferSize else {
            buffer.append(value)
            return
        }
        if bufferSize == 0 { return }
        buffer.append(value)
        if buffer.count - bufferStart > bufferSize {
            bufferStart += 1
            // Compact once the dropped prefix is large, so appends stay amortised O(1).
            if bufferStart > 64 && bufferStart * 2 > buffer.count {
                buffer.removeFirst(bufferStart)
                bufferStart = 0
            }
        }
    }

    /// Replays the buffer (and the terminal event) to `observer`, then sends the later events.
    ///
    /// The replay runs after the lock is released, so the observer may call back into the
    /// subject; events sent meanwhile (by it or by other threads) reach it right after the
    /// replayed ones, in order.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let start: ReplayStart<Element> = lock.performLocked {
            if disposed {
                return .disposed
            }
            let replayed = Array(buffer[bufferStart...])
            if stopped {
                return .terminated(replayed, stoppedError.map { .error($0) } ?? .completed)
            }
            let gate = SubscriptionGate(observer.on)
            let subscription = OwnedSubjectSubscription(handler: gate.on, owner: self)
            observers.insert(subscription)
            Resources.add(1)
            return .live(replayed, gate, subscription)
        }
        switch start {
        case .disposed:
            observer.on(.error(RxError.disposed(object: self)))
            return Disposables.create()
        case .terminated(let replayed, let terminal):
            for element in replayed {
                observer.on(.next(element))
            }
            observer.on(terminal)
            return Disposables.create()
        case .live(let replayed, let gate, let subscription):
            for element in replayed {
                observer.on(.next(element))
            }
            gate.open()
            return subscription
        }
    }

    @usableFromInline
    func unsubscribe(_ subscription: AnyObject) {
        let removed = lock.performLocked { observers.remove(subscription) }
        if removed { Resources.add(-1) }
    }

    /// The subject itself.
    public func asObserver() -> ReplaySubject<Element> { self }

    /// Removes every observer and the buffer; later subscribers get `RxError.disposed`.
    public func dispose() {
        let taken: SubjectObserverList = lock.performLocked {
            disposed = true
            buffer.removeAll()
            bufferStart = 0
            stoppedError = nil
            return observers.takeAll()
        }
        taken.detachAll()
    }

    deinit {
        // Observers still registered are released with the subject (under the lock: a
        // subscription's dispose may be inside `unsubscribe`).
        lock.performLocked { observers.takeAll() }.detachAll()
    }
}

/// How a new observer of a `ReplaySubject` starts, decided under the subject's lock.
private enum ReplayStart<Element> {
    case disposed
    case terminated([Element], Event<Element>)
    case live([Element], SubscriptionGate<Element>, SubjectSubscription<Element>)
}
