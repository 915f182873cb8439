import RxSwift

extension SharedSequence {
    /// The elements as an `AsyncStream`, for `for await`; read on the main actor, as in
    /// RxSwift.
    ///
    /// Each read subscribes once; the stream ends when the sequence completes. Cancelling the
    /// iterating task (or dropping the stream) disposes the subscription, which RxSwift's
    /// version does not do. Elements are handed to the iterating task unchecked (see
    /// `ObservableConvertibleType.values`).
    @MainActor
    public var values: AsyncStream<Element> {
        // A shared sequence never fails, so it has exactly the stream of an `Infallible`.
        Infallible(asObservable()).values
    }
}
