/// A sequence that subscribes to its source only when `connect()` is called, and shares
/// that one subscription with all its observers (see `multicast`, `publish`, `replay`).
public protocol ConnectableObservableType: ObservableType {
    /// Subscribes the shared subject to the source (once; later calls return the same
    /// connection until it ends).
    ///
    /// - returns: The connection; disposing it disconnects from the source.
    func connect() -> Disposable
}

/// Base class of connectable sequences.
public class ConnectableObservable<Element>: Observable<Element>, ConnectableObservableType {
    /// Connects to the source. Abstract.
    public func connect() -> Disposable {
        rxAbstractMethod()
    }
}
