/// A sequence that cannot fail: it sends elements and may complete, but never sends an error.
///
/// Unlike `Driver` and `Signal` it neither shares its subscription nor moves its events to
/// another scheduler: apart from the missing error it behaves like the `Observable` it wraps.
public protocol InfallibleType: ObservableConvertibleType {}

/// A sequence that cannot fail (see `InfallibleType`).
public struct Infallible<Element>: InfallibleType {
    private let source: Observable<Element>

    /// Wraps `source`, which must never send an error.
    package init(_ source: Observable<Element>) {
        self.source = source
    }

    /// The events of the sequence as an `Observable` (which never fails).
    public func asObservable() -> Observable<Element> {
        source
    }
}

extension InfallibleType {
    /// Subscribes closures for elements, completion and disposal (there is no error to
    /// handle). `onDisposed` runs once, after completion or when the subscription is disposed.
    ///
    /// - returns: The subscription.
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes closures that receive `object` (held weakly) with each element, the
    /// completion and disposal; events after `object` is deallocated are ignored.
    ///
    /// - returns: The subscription.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes a closure that receives every event (`.next` or `.completed`).
    ///
    /// - returns: The subscription.
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
        asObservable().subscribe(on)
    }
}
