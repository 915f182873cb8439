/// The parts of `zip` shared by every arity (the arities themselves are generated into
/// `Zip+arity.swift` by `scripts/rx/generate_zip.py`).
///
/// Every source's events are handled under the sink's recursive lock, so the downstream
/// observer never sees two events at once; the lock is recursive because a downstream
/// observer may feed a source again. Sources are disposed only after the lock is released
/// (a source whose disposal waits for another thread sending to the zip cannot deadlock it).

/// What a source observer reports to the zipping sink (called holding the sink's lock).
/// Each returns whether the zip ended, so the caller disposes it after the lock.
protocol ZipSinkProtocol: AnyObject {
    /// Source `index` sent an element (already queued by its observer).
    func next(_ index: Int) -> Bool
    /// A source failed.
    func fail(_ error: Swift.Error) -> Bool
    /// Source `index` completed. (As in RxSwift, the zip completes once every source did.)
    func done(_ index: Int) -> Bool
    /// Ends the zip: disposes every source.
    func dispose()
}

/// Sends a result each time every source has a queued element; completes when all are done.
class ZipSink<Observer: ObserverType>: Sink<Observer>, ZipSinkProtocol {
    typealias Element = Observer.Element

    let lock = RecursiveLock()

    private let arity: Int
    /// Guarded by `lock`.
    private var isDone: [Bool]
    /// Guarded by `lock`: the terminal event was sent; later source events are ignored.
    private var finished = false

    init(arity: Int, observer: Observer, cancel: SinkDisposer) {
        self.arity = arity
        self.isDone = [Bool](repeating: false, count: arity)
        super.init(observer: observer, cancel: cancel)
    }

    /// Dequeues one element of every source and combines them. Abstract.
    func getResult() throws -> Element {
        rxAbstractMethod()
    }

    /// Whether source `index` has a queued element. Abstract.
    func hasElements(_ index: Int) -> Bool {
        rxAbstractMethod()
    }

    func next(_ index: Int) -> Bool {
        if finished { return false }
        for source in 0..<arity where !hasElements(source) {
            return false
        }
        do {
            let result = try getResult()
            forwardOn(.next(result))
            return false
        } catch {
            return finish(.error(error))
        }
    }

    func fail(_ error: Swift.Error) -> Bool {
        if finished { return false }
        return finish(.error(error))
    }

    func done(_ index: Int) -> Bool {
        if finished { return false }
        isDone[index] = true
        if !isDone.contains(false) {
            return finish(.completed)
        }
        return false
    }

    /// Sends the terminal `event`; the caller disposes after releasing the lock.
    private func finish(_ event: Event<Element>) -> Bool {
        finished = true
        forwardOn(event)
        return true
    }
}

/// Observes one source of a `zip`: queues its element and tells the sink, under the sink's
/// lock; disposes its source and, when the zip ended, the sink after releasing it.
final class ZipObserver<Element>: ObserverType {
    typealias ElementQueuer = (Element) -> Void

    private let parent: ZipSinkProtocol
    private let lock: RecursiveLock
    private let index: Int
    private let this: Disposable
    private let enqueue: ElementQueuer

    init(lock: RecursiveLock, parent: ZipSinkProtocol, index: Int, enqueue: @escaping ElementQueuer, this: Disposable) {
        self.lock = lock
        self.parent = parent
        self.index = index
        self.this = this
        self.enqueue = enqueue
    }

    func on(_ event: Event<Element>) {
        let ended: Bool = lock.performLocked {
            switch event {
            case .next(let value):
                enqueue(value)
                return parent.next(index)
            case .error(let error):
                return parent.fail(error)
            case .completed:
                return parent.done(index)
            }
        }
        if event.isStopEvent {
            this.dispose()
        }
        if ended {
            parent.dispose()
        }
    }
}

/// A first-in first-out queue of the elements a zip source sent ahead of the others.
struct ZipQueue<Element> {
    private var storage: [Element] = []
    private var head = 0

    init() {}

    var isEmpty: Bool { head == storage.count }

    mutating func enqueue(_ element: Element) {
        storage.append(element)
    }

    /// Removes and returns the oldest element; the queue must not be empty.
    mutating func dequeue() -> Element {
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }
}
