// RxSwift 5 names that RxSwift 6 keeps as deprecated aliases, so older code still compiles.

extension ObservableType {
    /// RxSwift 5 name of `catch(_:)`.
    @available(*, deprecated, renamed: "catch(_:)")
    public func catchError(_ handler: @escaping (Swift.Error) throws -> Observable<Element>) -> Observable<Element> {
        `catch`(handler)
    }

    /// RxSwift 5 name of `catchAndReturn(_:)`.
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> Observable<Element> {
        catchAndReturn(element)
    }

    /// RxSwift 5 name of `take(until:)`.
    @available(*, deprecated, renamed: "take(until:)")
    public func takeUntil<Source: ObservableType>(_ other: Source) -> Observable<Element> {
        take(until: other)
    }

    /// RxSwift 5 name of `take(until:behavior:)`.
    @available(*, deprecated, renamed: "take(until:behavior:)")
    public func takeUntil(_ behavior: TakeBehavior, predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        take(until: predicate, behavior: behavior)
    }

    /// RxSwift 5 name of `take(while:)`.
    @available(*, deprecated, renamed: "take(while:)")
    public func takeWhile(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        take(while: predicate)
    }

    /// RxSwift 5 name of `take(for:scheduler:)`.
    @available(*, deprecated, renamed: "take(for:scheduler:)")
    public func take(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        take(for: duration, scheduler: scheduler)
    }

    /// RxSwift 5 name of `skip(while:)`.
    @available(*, deprecated, renamed: "skip(while:)")
    public func skipWhile(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        skip(while: predicate)
    }

    /// RxSwift 5 name of `skip(until:)`.
    @available(*, deprecated, renamed: "skip(until:)")
    public func skipUntil<Source: ObservableType>(_ other: Source) -> Observable<Element> {
        skip(until: other)
    }

    /// RxSwift 5 name of `element(at:)`.
    @available(*, deprecated, renamed: "element(at:)")
    public func elementAt(_ index: Int) -> Observable<Element> {
        element(at: index)
    }

    /// RxSwift 5 name of `retry(when:)`.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType, Error: Swift.Error>(_ notificationHandler: @escaping (Observable<Error>) -> TriggerObservable) -> Observable<Element> {
        retry(when: notificationHandler)
    }

    /// RxSwift 5 name of `retry(when:)`.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType>(_ notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable) -> Observable<Element> {
        retry(when: notificationHandler)
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// RxSwift 5 form of `subscribe(onSuccess:onFailure:onDisposed:)`.
    @available(*, deprecated, renamed: "subscribe(onSuccess:onFailure:onDisposed:)")
    public func subscribe(onSuccess: ((Element) -> Void)? = nil, onError: @escaping (Swift.Error) -> Void, onDisposed: (() -> Void)? = nil) -> Disposable {
        subscribe(onSuccess: onSuccess, onFailure: onError, onDisposed: onDisposed)
    }
}
