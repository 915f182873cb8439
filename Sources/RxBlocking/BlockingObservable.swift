import Dispatch
import Foundation
import RxSwift
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
        try elementsOrThrow(materializeResult())
    }

    /// The first element, or `nil` when the sequence completes empty; stops waiting (and
    /// disposes the subscription) at the first element.
    public func first() throws -> Element? {
        try elementsOrThrow(materializeResult(max: 1)).first
    }

    /// The last element, or `nil` when the sequence completes empty.
    public func last() throws -> Element? {
        try elementsOrThrow(materializeResult()).last
    }

    /// The only element; throws `RxError.noElements` for none and
    /// `RxError.moreThanOneElement` as soon as a second one arrives.
    public func single() throws -> Element {
        try single { _ in true }
    }

    /// The only element passing `predicate`; throws `RxError.noElements` when none passes and
    /// `RxError.moreThanOneElement` as soon as a second one passes (the subscription is
    /// disposed then, as in RxBlocking). An error `predicate` throws is thrown.
    public func single(_ predicate: @escaping (Element) throws -> Bool) throws -> Element {
        let elements = try elementsOrThrow(materializeResult(max: 2, predicate: predicate))
        if elements.count > 1 {
            throw RxError.moreThanOneElement
        }
        guard let element = elements.first else {
            throw RxError.noElements
        }
        return element
    }

    /// The elements and how the sequence ended (errors, including a timeout, are returned).
    public func materialize() -> MaterializedSequenceResult<Element> {
        materializeResult()
    }

    private func elementsOrThrow(_ result: MaterializedSequenceResult<Element>) throws -> [Element] {
        switch result {
        case .completed(let elements): return elements
        case .failed(_, let error): throw error
        }
    }

    /// Collects the elements passing `predicate` until the sequence ends or `max` of them
    /// were collected. On the main thread it runs the run loop while it waits, so work the
    /// sequence queued on the main thread (`MainScheduler`) can run, as RxBlocking's run
    /// loop lock does.
    private func materializeResult(max: Int? = nil, predicate: @escaping (Element) throws -> Bool = { _ in true }) -> MaterializedSequenceResult<Element> {
        let onMainThread = Thread.isMainThread
        let collector = BlockingCollector<Element>(max: max, predicate: predicate, wakesMainRunLoop: onMainThread)
        let subscription = SingleAssignmentDisposable()
        subscription.setDisposable(source.subscribe(collector))
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        let finished: Bool
        if onMainThread {
            while !collector.isFinished {
                let limit = deadline ?? .distantFuture
                if Date() >= limit { break }
                _ = RunLoop.current.run(mode: .default, before: min(limit, Date().addingTimeInterval(0.1)))
            }
            finished = collector.isFinished
        } else if let timeout {
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
    private let max: Int?
    private let predicate: (Element) throws -> Bool
    private let wakesMainRunLoop: Bool
    private var elements: [Element] = []
    private var error: Error?
    private var finished = false

    init(max: Int?, predicate: @escaping (Element) throws -> Bool, wakesMainRunLoop: Bool) {
        self.max = max
        self.predicate = predicate
        self.wakesMainRunLoop = wakesMainRunLoop
    }

    var isFinished: Bool { lock.withLock { _ in finished } }

    func on(_ event: Event<Element>) {
        if isFinished { return }
        var failure: Error?
        var passes = false
        if case .next(let element) = event {
            do {
                passes = try predicate(element)
            } catch {
                failure = error
            }
        }
        let signal: Bool = lock.withLock { _ in
            guard !finished else { return false }
            switch event {
            case .next(let element):
                if let failure {
                    self.error = failure
                    finished = true
                } else if passes {
                    elements.append(element)
                    if let max, elements.count >= max {
                        finished = true
                    }
                }
            case .error(let error):
                self.error = error
                finished = true
            case .completed:
                finished = true
            }
            return finished
        }
        if signal {
            done.signal()
            if wakesMainRunLoop {
                // Ends the waiting run loop turn at once instead of at its next check.
                DispatchQueue.main.async {}
            }
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
