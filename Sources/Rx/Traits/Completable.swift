/// The trait of `Completable`: no element, only completion or an error.
public enum CompletableTrait {}

/// A sequence with no elements that completes or fails.
public typealias Completable = PrimitiveSequence<CompletableTrait, Never>

/// What a `Completable` ends with.
public enum CompletableEvent {
    /// The sequence failed.
    case error(Swift.Error)
    /// The sequence completed.
    case completed
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Receives the one event of a `Completable`.
    public typealias CompletableObserver = (CompletableEvent) -> Void

    /// Creates a `Completable` from a subscribe function: `subscribe` runs for each
    /// subscriber with a callback to send the result to, and returns the disposable that
    /// cancels the work it started. Only the first result counts.
    ///
    /// - parameter subscribe: The subscribe function.
    /// - returns: The `Completable`.
    public static func create(subscribe: @escaping (@escaping CompletableObserver) -> Disposable) -> Completable {
        let source = Observable<Never>.create { observer in
            subscribe { event in
                switch event {
                case .error(let error):
                    observer.on(.error(error))
                case .completed:
                    observer.on(.completed)
                }
            }
        }
        return Completable(raw: source)
    }

    /// Subscribes a closure that receives the result.
    ///
    /// - returns: The subscription.
    public func subscribe(_ observer: @escaping CompletableObserver) -> Disposable {
        // Only touched by the source's events, which come one at a time.
        var stopped = false
        return primitiveSequence.asObservable().subscribe { event in
            if stopped { return }
            stopped = true
            switch event {
            case .error(let error):
                observer(.error(error))
            case .completed:
                observer(.completed)
            }
        }
    }

    /// Subscribes closures for completion, the error and disposal. Errors with no `onError`
    /// go to `Hooks.defaultErrorHandler`.
    ///
    /// - returns: The subscription.
    public func subscribe(onCompleted: (() -> Void)? = nil, onError: ((Swift.Error) -> Void)? = nil, onDisposed: (() -> Void)? = nil) -> Disposable {
        let disposable: Disposable
        if let onDisposed {
            disposable = Disposables.create(with: onDisposed)
        } else {
            disposable = Disposables.create()
        }
        let callStack = Hooks.subscriptionCallStack()
        let subscription = subscribe { event in
            switch event {
            case .error(let error):
                if let onError {
                    onError(error)
                } else {
                    Hooks.defaultErrorHandler(callStack, error)
                }
            case .completed:
                onCompleted?()
            }
            disposable.dispose()
        }
        return Disposables.create(subscription, disposable)
    }

    /// A `Completable` that completes at once.
    ///
    /// - returns: The `Completable`.
    public static func empty() -> Completable {
        Completable(raw: Observable.empty())
    }

    /// Runs side effects for the result and the lifetime of each subscription (see
    /// `Observable.do`); an error thrown by a handler fails the `Completable`.
    ///
    /// - returns: The same `Completable`, with the side effects.
    public func `do`(
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Completable {
        Completable(raw: primitiveSequence.source.do(onError: onError, afterError: afterError, onCompleted: onCompleted, afterCompleted: afterCompleted, onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// Subscribes to `second` once this `Completable` completes (an error skips it).
    ///
    /// - returns: A `Completable` that completes when both have.
    public func andThen(_ second: Completable) -> Completable {
        Completable(raw: primitiveSequence.source.switchIfEmpty(second.asObservable()))
    }

    /// Subscribes to `second` once this `Completable` completes (an error skips it).
    ///
    /// - returns: The `Single` `second`, after this `Completable`.
    public func andThen<SecondElement>(_ second: Single<SecondElement>) -> Single<SecondElement> {
        Single(raw: primitiveSequence.source.asEmptyOf(SecondElement.self).switchIfEmpty(second.asObservable()))
    }

    /// Subscribes to `second` once this `Completable` completes (an error skips it).
    ///
    /// - returns: The observable `second`, after this `Completable`.
    public func andThen<SecondElement>(_ second: Observable<SecondElement>) -> Observable<SecondElement> {
        primitiveSequence.source.asEmptyOf(SecondElement.self).switchIfEmpty(second)
    }
}

extension ObservableType {
    /// The sequence without its elements, as a `Completable`.
    ///
    /// - returns: The `Completable`.
    public func asCompletable() -> Completable {
        Completable(raw: ignoreElements())
    }
}

extension Observable where Element == Never {
    /// The same termination, typed as a sequence of `Other` (there are no elements to convert).
    fileprivate func asEmptyOf<Other>(_ type: Other.Type) -> Observable<Other> {
        Observable<Other>.create { observer in
            self.subscribe { event in
                if let error = event.error {
                    observer.on(.error(error))
                } else if event.isCompleted {
                    observer.on(.completed)
                }
            }
        }
    }
}
