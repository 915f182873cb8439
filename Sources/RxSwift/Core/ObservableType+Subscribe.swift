extension ObservableType {
    /// Subscribes an observer already erased to `AnyObserver` (RxLive's addition, not RxSwift
    /// API): the same events as `subscribe(_:)`, through the operators' specialised path. The
    /// generic `subscribe(_:)` is a generic method called through the class, so its sinks run
    /// unspecialised code, with type metadata looked up per event.
    @inlinable
    public func subscribe(anyObserver observer: AnyObserver<Element>) -> Disposable {
        asObservable().subscribeErased(observer)
    }

    /// `subscribe(anyObserver:)` with the subscription as a class reference, `nil` when there
    /// is nothing to dispose (RxLive's addition, not RxSwift API): 16 bytes to keep where a
    /// `Disposable` takes 40, with no dynamic cast to get there.
    @inlinable
    public func subscribeObject(anyObserver observer: AnyObserver<Element>) -> (AnyObject & Disposable)? {
        asObservable().subscribeObject(observer)
    }

    /// Subscribes a closure that receives every event.
    ///
    /// - returns: The subscription.
    @inlinable
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
        let observer = AnonymousObserver<Element> { event in on(event) }
        return asObservable().subscribeErased(AnyObserver(eventHandler: observer.on))
    }

    /// Subscribes closures for elements, errors, completion and disposal.
    ///
    /// Errors with no `onError` go to `Hooks.defaultErrorHandler`. `onDisposed` runs once
    /// after the sequence terminates or the subscription is disposed.
    ///
    /// - returns: The subscription.
    @inlinable
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        guard let onDisposed else {
            // Nothing to run on disposal: the subscription itself is the result.
            let observer = SubscribeObserver(onNext: onNext, onError: onError, onCompleted: onCompleted, disposable: Disposables.create())
            return asObservable().subscribeErased(AnyObserver(eventHandler: observer.on))
        }
        let disposable = Disposables.create(with: onDisposed)
        let observer = SubscribeObserver(onNext: onNext, onError: onError, onCompleted: onCompleted, disposable: disposable)
        return Disposables.create(asObservable().subscribeErased(AnyObserver(eventHandler: observer.on)), disposable)
    }

    /// Subscribes closures that receive `object` (held weakly) with each element, error,
    /// completion and disposal; events after `object` is deallocated are ignored.
    @inlinable
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onNext: { [weak object] in
                guard let object else { return }
                onNext?(object, $0)
            },
            onError: { [weak object] in
                guard let object else { return }
                onError?(object, $0)
            },
            onCompleted: { [weak object] in
                guard let object else { return }
                onCompleted?(object)
            },
            onDisposed: { [weak object] in
                guard let object else { return }
                onDisposed?(object)
            }
        )
    }
}
