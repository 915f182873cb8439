extension InfallibleType {
    /// The elements of the sequence as an `AsyncStream`, for `for await`.
    ///
    /// Each read of `values` subscribes once; the stream buffers elements until they are
    /// iterated and ends when the sequence completes. Cancelling the iterating task (or
    /// dropping the stream) disposes the subscription; a subscription disposed before the
    /// sequence completed ends the stream.
    ///
    /// Differs from RxSwift only in what Swift 6 checks: elements are handed to the iterating
    /// task unchecked (see `ObservableConvertibleType.values`).
    public var values: AsyncStream<Element> {
        AsyncStream<Element> { continuation in
            let subscription = SingleAssignmentDisposable()
            let disposer = UncheckedTransfer(subscription) // `dispose()` is thread-safe
            continuation.onTermination = { termination in
                if case .cancelled = termination {
                    disposer.value.dispose()
                }
            }
            subscription.setDisposable(asObservable().subscribe(
                onNext: { element in
                    nonisolated(unsafe) let handedOver = element // to the one iterating task
                    continuation.yield(handedOver)
                },
                onDisposed: {
                    // After completion this is a no-op; after an early disposal it ends the stream.
                    continuation.finish()
                }
            ))
        }
    }
}
