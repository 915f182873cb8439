/// A subject that replays buffered elements (all, or the last `bufferSize`) and the terminal
/// event to new observers, then sends them the later events.
public class ReplaySubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, SynchronizedUnsubscribeType {
    /// The observer side is the subject itself.
    public typealias SubjectObserverType = ReplaySubject<Element>

    /// Recursive: held while replaying, which may call back into the subject.
    private let lock = RecursiveLock()
    /// Guarded by `lock`.
    private var buffer: [Element] = []
    /// Guarded by `lock`: index of the oldest element kept in `buffer`.
    private var bufferStart = 0
    private let bufferSize: Int?
    /// Guarded by `lock`.
    private var observers = Bag<(Event<Element>) -> Void>()
    /// Guarded by `lock`.
    private var stoppedEvent: Event<Element>?
    /// Guarded by `lock`.
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

    /// A subject replaying every element.
    public static func createUnbound() -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: nil)
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
        var snapshot = Bag<(Event<Element>) -> Void>()
        var released = 0
        lock.performLocked {
            guard !disposed && stoppedEvent == nil else { return }
            switch event {
            case .next(let value):
                if let bufferSize {
                    if bufferSize == 0 { break }
                    buffer.append(value)
                    if buffer.count - bufferStart > bufferSize {
                        bufferStart += 1
                        if bufferStart > 64 && bufferStart * 2 > buffer.count {
                            buffer.removeFirst(bufferStart)
                            bufferStart = 0
                        }
                    }
                } else {
                    buffer.append(value)
                }
                snapshot = observers
            case .error, .completed:
                stoppedEvent = event
                snapshot = observers
                released = observers.count
                observers.removeAll()
            }
        }
        for _ in 0..<released { Resources.decrementTotal() }
        dispatch(snapshot, event)
    }

    /// Replays the buffer (and the terminal event) to `observer`, then sends the later events.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        lock.performLocked {
            if disposed {
                observer.on(.error(RxError.disposed(object: self)))
                return Disposables.create()
            }
            for index in bufferStart..<buffer.count {
                observer.on(.next(buffer[index]))
            }
            if let stoppedEvent {
                observer.on(stoppedEvent)
                return Disposables.create()
            }
            let key = observers.insert(observer.on)
            Resources.incrementTotal()
            return SubscriptionDisposable(owner: self, key: key)
        }
    }

    @usableFromInline
    func synchronizedUnsubscribe(_ key: BagKey) {
        let removed = lock.performLocked { observers.removeKey(key) != nil }
        if removed { Resources.decrementTotal() }
    }

    /// The subject itself.
    public func asObserver() -> ReplaySubject<Element> { self }

    /// Removes every observer and the buffer; later subscribers get `RxError.disposed`.
    public func dispose() {
        let count: Int = lock.performLocked {
            disposed = true
            let count = observers.count
            observers.removeAll()
            buffer.removeAll()
            bufferStart = 0
            stoppedEvent = nil
            return count
        }
        for _ in 0..<count { Resources.decrementTotal() }
    }
}
