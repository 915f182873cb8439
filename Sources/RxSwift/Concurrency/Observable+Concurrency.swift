extension ObservableConvertibleType {
    /// The elements of the sequence as an `AsyncThrowingStream`, for `for try await`.
    ///
    /// Each read of `values` subscribes once; the stream buffers elements until they are
    /// iterated, ends when the sequence completes and throws its error. Cancelling the
    /// iterating task (or dropping the stream) disposes the subscription; a subscription
    /// disposed before the sequence ended finishes the stream with `CancellationError`.
    ///
    /// Differs from RxSwift only in what Swift 6 checks: `Element` need not be `Sendable`, so
    /// the elements are handed to the iterating task unchecked. Do not mutate an element
    /// after the sequence has sent it.
    public var values: AsyncThrowingStream<Element, Swift.Error> {
        AsyncThrowingStream<Element, Swift.Error> { continuation in
            let subscription = SingleAssignmentDisposable()
            // `dispose()` is thread-safe; the stream may terminate on any thread.
            let disposer = UncheckedTransfer(subscription)
            continuation.onTermination = { termination in
                if case .cancelled = termination {
                    disposer.value.dispose()
                }
            }
            subscription.setDisposable(asObservable().subscribe(
                onNext: { element in
                    // The element goes to the one task iterating the stream (see above).
                    nonisolated(unsafe) let handedOver = element
                    continuation.yield(handedOver)
                },
                onError: { error in
                    continuation.finish(throwing: error)
                },
                onCompleted: {
                    continuation.finish()
                },
                onDisposed: {
                    // A no-op after the sequence ended (only the first finish counts); after
                    // an early disposal it ends the stream.
                    continuation.finish(throwing: CancellationError())
                }
            ))
        }
    }
}

extension AsyncSequence {
    /// An `Observable` of the elements of this async sequence: each subscription iterates it
    /// in a detached task (so the subscribing thread is never blocked and the task inherits
    /// no actor), sends its elements, then completes, or fails with the error it throws
    /// (`CancellationError` completes). Disposing the subscription cancels the task. Events
    /// arrive on the task's thread; use `observe(on:)` to move them.
    ///
    /// Differs from RxSwift only in what Swift 6 checks: the sequence and the observer are
    /// handed to the task unchecked, so a sequence subscribed to several times must allow
    /// several iterations at once (as RxSwift also requires).
    ///
    /// - parameter priority: The priority of the iterating task.
    /// - returns: The `Observable`.
    public func asObservable(priority: TaskPriority? = nil) -> Observable<Element> {
        Observable.create { observer in
            // Erased to a non-generic existential so the task's closure captures no generic
            // metatypes (Swift 6 cannot prove those Sendable).
            let iteration: any AsyncIteration = AsyncSequenceIteration(sequence: self, observer: observer)
            let task = Task.detached(priority: priority) { await iteration.run() }
            return Disposables.create { task.cancel() }
        }
    }
}

/// Work a task runs, erased of its generic types.
private protocol AsyncIteration: Sendable {
    func run() async
}

/// One subscription's iteration of an async sequence.
private final class AsyncSequenceIteration<Sequence: AsyncSequence>: AsyncIteration, @unchecked Sendable { // used only by its one task after init
    private let sequence: Sequence
    private let observer: AnyObserver<Sequence.Element>

    init(sequence: Sequence, observer: AnyObserver<Sequence.Element>) {
        self.sequence = sequence
        self.observer = observer
    }

    /// Sends the elements, then completion (also on cancellation) or the error thrown.
    func run() async {
        do {
            for try await element in sequence {
                observer.onNext(element)
            }
            observer.onCompleted()
        } catch is CancellationError {
            observer.onCompleted()
        } catch {
            observer.onError(error)
        }
    }
}
