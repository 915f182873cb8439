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

    /// Subscribes closures that receive `object` (held weakly) on completion, on the error
    /// and on disposal; results after `object` is deallocated are ignored.
    ///
    /// - returns: The subscription.
    public func subscribe<Object: AnyObject>(with object: Object, onCompleted: ((Object) -> Void)? = nil, onError: ((Object, Swift.Error) -> Void)? = nil, onDisposed: ((Object) -> Void)? = nil) -> Disposable {
        subscribe(
            onCompleted: { [weak object] in
                guard let object else { return }
                onCompleted?(object)
            },
            onError: { [weak object] error in
                guard let object else { return }
                onError?(object, error)
            },
            onDisposed: { [weak object] in
                guard let object else { return }
                onDisposed?(object)
            }
        )
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
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Subscribes to `second` once this `Completable` completes (an error skips it).
    ///
    /// - returns: A `Completable` that completes when both have.
    public func concat(_ second: Completable) -> Completable {
        Completable.concat(primitiveSequence, second)
    }

    /// Subscribes to the `Completable`s of `sequence` one after another, each once the
    /// previous one completed; fails with the first error.
    ///
    /// - returns: A `Completable` that completes when all have.
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Completable where Sequence.Element == Completable {
        Completable(raw: Observable.concat(sequence.lazy.map { $0.asObservable() }))
    }

    /// Subscribes to the `Completable`s of `collection` one after another, each once the
    /// previous one completed; fails with the first error.
    ///
    /// - returns: A `Completable` that completes when all have.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Completable where Collection.Element == Completable {
        Completable(raw: Observable.concat(collection.map { $0.asObservable() }))
    }

    /// Subscribes to `sources` one after another, each once the previous one completed;
    /// fails with the first error.
    ///
    /// - returns: A `Completable` that completes when all have.
    public static func concat(_ sources: Completable...) -> Completable {
        Completable(raw: Observable.concat(sources.map { $0.asObservable() }))
    }

    /// Subscribes to every `Completable` of `sources` at once (for `Completable`, `zip` is
    /// `merge`); completes when all have, fails with the first error.
    ///
    /// - returns: The combined `Completable`.
    public static func zip<Collection: Swift.Collection>(_ sources: Collection) -> Completable where Collection.Element == Completable {
        Completable(raw: Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Subscribes to every `Completable` of `sources` at once (for `Completable`, `zip` is
    /// `merge`); completes when all have, fails with the first error.
    ///
    /// - returns: The combined `Completable`.
    public static func zip(_ sources: [Completable]) -> Completable {
        Completable(raw: Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Subscribes to every `Completable` of `sources` at once (for `Completable`, `zip` is
    /// `merge`); completes when all have, fails with the first error.
    ///
    /// - returns: The combined `Completable`.
    public static func zip(_ sources: Completable...) -> Completable {
        Completable(raw: Observable.merge(sources.map { $0.asObservable() }))
    }
}

extension ObservableType where Element == Never {
    /// The sequence as a `Completable` (it has no elements to drop).
    ///
    /// - returns: The `Completable`.
    public func asCompletable() -> Completable {
        Completable(raw: asObservable())
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
