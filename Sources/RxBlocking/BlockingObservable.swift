import Dispatch
import Foundation
import Rx
import Synchronization

/// A sequence whose results are read by blocking the calling thread (for tests and tools,
/// never for an event loop thread).
///
/// Each method subscribes, waits until the sequence terminates (or, for `first`, sends its
/// first element), and throws the sequence's error, or `RxError.timeout` when `timeout`
/// elapses first.
public struct BlockingObservable<Element> {
    let timeout: TimeInterval?
    let source: Observable<Element>
}

/// The result of `materialize()`: the elements and how the sequence ended.
public enum MaterializedSequenceResult<T> {
    /// The sequence completed after these elements.
    case completed(elements: [T])
    /// The sequence failed with `error` after these elements.
    case failed(elements: [T], error: Error)
}

extension ObservableConvertibleType {
    /// Blocking access to the sequence's results.
    ///
    /// - parameter timeout: Longest wait in seconds (`nil`: wait forever).
    public func toBlocking(timeout: TimeInterval? = nil) -> BlockingObservable<Element> {
        BlockingObservable(timeout: timeout, source: asObservable())
    }
}

extension BlockingObservable {
    /// Every element, once the sequence completes.
    public func toArray() throws -> [Element] {
        switch materializeResult(stopAfterFirst: false) {
        case .completed(let elements): return elements
        case .failed(_, let error): throw error
        }
    }

    /// The first element, or `nil` when the sequence completes empty.
    public func first() throws -> Element? {
        switch materializeResult(stopAfterFirst: true) {
        case .completed(let elements): return elements.first
        case .failed(_, let error): throw error
        }
    }

    /// The last element, or `nil` when the sequence completes empty.
    public func last() throws -> Element? {
        switch materializeResult(stopAfterFirst: false) {
        case .completed(let elements): return elements.last
        case .failed(_, let error): throw error
        }
    }

    /// The only element; throws `RxError.noElements` or `RxError.moreThanOneElement` otherwise.
    public func single() throws -> Element {
        try single { _ in true }
    }

    /// The only element passing `predicate`; throws `RxError.noElements` or
    /// `RxError.moreThanOneElement` otherwise.
    public func single(_ predicate: @escaping (Element) throws -> Bool) throws -> Element {
        let elements = try toArray().filter(predicate)
        switch elements.count {
        case 0: throw RxError.noElements
        case 1: return elements[0]
        default: throw RxError.moreThanOneElement
        }
    }

    /// The elements and how the sequence ended (errors, including a timeout, are returned).
    public func materialize() -> MaterializedSequenceResult<Element> {
        materializeResult(stopAfterFirst: false)
    }

    private func materializeResult(stopAfterFirst: Bool) -> MaterializedSequenceResult<Element> {
        let collector = BlockingCollector<Element>(stopAfterFirst: stopAfterFirst)
        let subscription = source.subscribe(collector)
        let finished: Bool
        if let timeout {
            finished = collector.done.wait(timeout: .now() + timeout) == .success
        } else {
            collector.done.wait()
            finished = true
        }
        subscription.dispose()
        return collector.result(timedOut: !finished)
    }
}

/// Collects events from any thread and signals the waiting thread when done.
private final class BlockingCollector<Element>: ObserverType {
    let done = DispatchSemaphore(value: 0)
    /// Guards the properties below.
    private let lock = Mutex<Void>(())
    private let stopAfterFirst: Bool
    private var elements: [Element] = []
    private var error: Error?
    private var finished = false

    init(stopAfterFirst: Bool) {
        self.stopAfterFirst = stopAfterFirst
    }

    func on(_ event: Event<Element>) {
        var signal = false
        lock.withLock { _ in
            guard !finished else { return }
            switch event {
            case .next(let element):
                elements.append(element)
                if stopAfterFirst {
                    finished = true
                }
            case .error(let error):
                self.error = error
                finished = true
            case .completed:
                finished = true
            }
            signal = finished
        }
        if signal {
            done.signal()
        }
    }

    func result(timedOut: Bool) -> MaterializedSequenceResult<Element> {
        var result = MaterializedSequenceResult<Element>.completed(elements: [])
        lock.withLock { _ in
            if timedOut && !finished {
                finished = true
                result = .failed(elements: elements, error: RxError.timeout)
            } else if let error {
                result = .failed(elements: elements, error: error)
            } else {
                result = .completed(elements: elements)
            }
        }
        return result
    }
}
