/// A resource that can be released (a subscription, a scheduled action...).
public protocol Disposable {
    /// Releases the resource. Idempotent.
    func dispose()
}

/// A disposable that knows whether it was disposed.
public protocol Cancelable: Disposable {
    /// `true` once `dispose()` was called.
    var isDisposed: Bool { get }
}
