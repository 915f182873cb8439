/// The trait of `Single`: exactly one element, or an error.
public enum SingleTrait {}

/// A sequence of exactly one element, or an error.
public typealias Single<Element> = PrimitiveSequence<SingleTrait, Element>

/// What a `Single` ends with: `.success(element)` or `.failure(error)`.
public typealias SingleEvent<Element> = Result<Element, Swift.Error>

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Receives the one event of a `Single`.
    public typealias SingleObserver = (SingleEvent<Element>) -> Void

    /// Creates a `Single` from a subscribe function: `subscribe` runs for each subscriber
    /// with a callback to send the result to, and returns the disposable that cancels the
    /// work it started. Only the first result counts.
    ///
    /// - parameter subscribe: The subscribe function.
    /// - returns: The `Single`.
    public static func create(subscribe: @escaping (@escaping SingleObserver) -> Disposable) -> Single<Element> {
        let source = Observable<Element>.create { observer in
            subscribe { event in
                switch event {
                case .success(let element):
                    observer.on(.next(element))
                    observer.on(.completed)
                case .failure(let error):
                    observer.on(.error(error))
                }
            }
        }
        return Single(raw: source)
    }

    /// Subscribes a closure that receives the result.
    ///
    /// - returns: The subscription.
    public func subscribe(_ observer: @escaping SingleObserver) -> Disposable {
        // Only touched by the source's events, which come one at a time.
        var stopped = false
        return primitiveSequence.asObservable().subscribe { event in
            if stopped { return }
            switch event {
            case .next(let element):
                stopped = true
                observer(.success(element))
            case .error(let error):
                stopped = true
                observer(.failure(error))
            case .completed:
                rxFatalErrorInDebug("A Single completed without an element")
            }
        }
    }

    /// Subscribes closures for the element, the error and disposal. Errors with no
    /// `onFailure` go to `Hooks.defaultErrorHandler`.
    ///
    /// - returns: The subscription.
    public func subscribe(onSuccess: ((Element) -> Void)? = nil, onFailure: ((Swift.Error) -> Void)? = nil, onDisposed: (() -> Void)? = nil) -> Disposable {
        let disposable: Disposable
        if let onDisposed {
            disposable = Disposables.create(with: onDisposed)
        } else {
            disposable = Disposables.create()
        }
        let callStack = Hooks.subscriptionCallStack()
        let subscription = subscribe { event in
            switch event {
            case .success(let element):
                onSuccess?(element)
            case .failure(let error):
                if let onFailure {
                    onFailure(error)
                } else {
                    Hooks.defaultErrorHandler(callStack, error)
                }
            }
            disposable.dispose()
        }
        return Disposables.create(subscription, disposable)
    }

    /// Subscribes closures that receive `object` (held weakly) with the element, the error
    /// and disposal; results after `object` is deallocated are ignored.
    ///
    /// - returns: The subscription.
    public func subscribe<Object: AnyObject>(with object: Object, onSuccess: ((Object, Element) -> Void)? = nil, onFailure: ((Object, Swift.Error) -> Void)? = nil, onDisposed: ((Object) -> Void)? = nil) -> Disposable {
        subscribe(
            onSuccess: { [weak object] element in
                guard let object else { return }
                onSuccess?(object, element)
            },
            onFailure: { [weak object] error in
                guard let object else { return }
                onFailure?(object, error)
            },
            onDisposed: { [weak object] in
                guard let object else { return }
                onDisposed?(object)
            }
        )
    }

    /// A `Single` of `element`.
    ///
    /// - returns: The `Single`.
    public static func just(_ element: Element) -> Single<Element> {
        Single(raw: Observable.just(element))
    }

    /// A `Single` of `element`, sent on `scheduler`.
    ///
    /// - returns: The `Single`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Single<Element> {
        Single(raw: Observable.just(element, scheduler: scheduler))
    }

    /// Transforms the element with `transform`; a thrown error fails the `Single`.
    ///
    /// - returns: The `Single` of the transformed element.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Single<Result> {
        Single(raw: primitiveSequence.source.map(transform))
    }

    /// Continues with the `Single` that `selector` makes from the element; a thrown error
    /// fails the result.
    ///
    /// - returns: The `Single` of the second element.
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Single<Result>) -> Single<Result> {
        Single(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// Continues with the `Maybe` that `selector` makes from the element; a thrown error
    /// fails the result.
    ///
    /// - returns: The `Maybe` of the second element.
    public func flatMapMaybe<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// Continues with the `Completable` that `selector` makes from the element; a thrown
    /// error fails the result.
    ///
    /// - returns: The `Completable`.
    public func flatMapCompletable(_ selector: @escaping (Element) throws -> Completable) -> Completable {
        Completable(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// Keeps the element if `predicate` holds for it; otherwise the result is empty. A thrown
    /// error fails the result.
    ///
    /// - returns: The `Maybe` of the element.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.filter(predicate))
    }

    /// Transforms the element with `transform`; a `nil` result gives an empty `Maybe`.
    ///
    /// - returns: The `Maybe` of the transformed element.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.compactMap(transform))
    }

    /// On an error, sends `element` instead.
    ///
    /// - returns: A `Single` that does not fail.
    public func catchAndReturn(_ element: Element) -> Single<Element> {
        Single(raw: primitiveSequence.source.catchAndReturn(element))
    }

    /// RxSwift 5 name of `catchAndReturn(_:)`.
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> Single<Element> {
        catchAndReturn(element)
    }

    /// Runs side effects for the result and the lifetime of each subscription (see
    /// `Observable.do`); an error thrown by a handler fails the `Single`.
    ///
    /// - returns: The same `Single`, with the side effects.
    public func `do`(
        onSuccess: ((Element) throws -> Void)? = nil,
        afterSuccess: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Single<Element> {
        Single(raw: primitiveSequence.source.do(onNext: onSuccess, afterNext: afterSuccess, onError: onError, afterError: afterError, onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// Waits for every `Single` of `collection` and combines their elements, in the
    /// collection's order, with `resultSelector`. Fails with the first error; an empty
    /// collection gives `resultSelector([])`.
    ///
    /// - returns: The `Single` of the combined result.
    public static func zip<Collection: Swift.Collection, Result>(_ collection: Collection, resultSelector: @escaping ([Element]) throws -> Result) -> PrimitiveSequence<Trait, Result> where Collection.Element == PrimitiveSequence<Trait, Element> {
        if collection.isEmpty {
            return PrimitiveSequence(raw: Observable.deferred { Observable.just(try resultSelector([])) })
        }
        return PrimitiveSequence(raw: Observable.zip(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Waits for every `Single` of `collection` and sends their elements in the collection's
    /// order. Fails with the first error; an empty collection gives `[]`.
    ///
    /// - returns: The `Single` of the elements.
    public static func zip<Collection: Swift.Collection>(_ collection: Collection) -> PrimitiveSequence<Trait, [Element]> where Collection.Element == PrimitiveSequence<Trait, Element> {
        if collection.isEmpty {
            return PrimitiveSequence(raw: Observable.just([]))
        }
        return PrimitiveSequence(raw: Observable.zip(collection.map { $0.asObservable() }))
    }

    /// The `Single` as a `Maybe`.
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source)
    }

    /// The `Single` without its element, as a `Completable`.
    public func asCompletable() -> Completable {
        Completable(raw: primitiveSequence.source.ignoreElements())
    }
}

extension ObservableType {
    /// The sequence as a `Single`: its one element when it completes; fails with
    /// `RxError.noElements` if it has none and `RxError.moreThanOneElement` at a second one.
    ///
    /// - returns: The `Single`.
    public func asSingle() -> Single<Element> {
        Single(raw: AtMostOneElement(source: asObservable(), emptyError: RxError.noElements))
    }
}
