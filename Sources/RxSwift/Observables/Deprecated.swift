#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

// Older names RxSwift 6 still carries in its Deprecated.swift.

extension Observable {
    /// Old spelling of `from(optional:)`.
    @available(*, deprecated, message: "Implicit conversions from any type to optional type are allowed and that is causing issues with `from` operator overloading.", renamed: "from(optional:)")
    public static func from(_ optional: Element?) -> Observable<Element> {
        Observable.from(optional: optional)
    }

    /// Old spelling of `from(optional:scheduler:)`.
    @available(*, deprecated, message: "Implicit conversions from any type to optional type are allowed and that is causing issues with `from` operator overloading.", renamed: "from(optional:scheduler:)")
    public static func from(_ optional: Element?, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        Observable.from(optional: optional, scheduler: scheduler)
    }
}

extension ObservableType {
    /// `map` with the element's index as second argument.
    @available(*, deprecated, message: "Please use enumerated().map()")
    public func mapWithIndex<Result>(_ selector: @escaping (Element, Int) throws -> Result) -> Observable<Result> {
        enumerated().map { try selector($0.element, $0.index) }
    }

    /// `flatMap` with the element's index as second argument.
    @available(*, deprecated, message: "Please use enumerated().flatMap()")
    public func flatMapWithIndex<Source: ObservableConvertibleType>(_ selector: @escaping (Element, Int) throws -> Source) -> Observable<Source.Element> {
        enumerated().flatMap { try selector($0.element, $0.index) }
    }

    /// `skip(while:)` with the element's index as second argument.
    @available(*, deprecated, message: "Please use enumerated().skipWhile().map()")
    public func skipWhileWithIndex(_ predicate: @escaping (Element, Int) throws -> Bool) -> Observable<Element> {
        enumerated().skip(while: { try predicate($0.element, $0.index) }).map { $0.element }
    }

    /// `take(while:)` with the element's index as second argument.
    @available(*, deprecated, message: "Please use enumerated().takeWhile().map()")
    public func takeWhileWithIndex(_ predicate: @escaping (Element, Int) throws -> Bool) -> Observable<Element> {
        enumerated().take(while: { try predicate($0.element, $0.index) }).map { $0.element }
    }

    /// RxSwift 4 name of `share(replay: 1)`.
    @available(*, deprecated, message: "use share(replay: 1) instead", renamed: "share(replay:)")
    public func shareReplayLatestWhileConnected() -> Observable<Element> {
        share(replay: 1, scope: .whileConnected)
    }

    /// RxSwift 3 sharing that keeps the replay buffer forever.
    @available(*, deprecated, message: "Suggested replacement is `share(replay: 1)`. In case old 3.x behavior of `shareReplay` is required please use `share(replay: 1, scope: .forever)` instead.", renamed: "share(replay:)")
    public func shareReplay(_ bufferSize: Int) -> Observable<Element> {
        share(replay: bufferSize, scope: .forever)
    }
}

/// A time in seconds as whole milliseconds, the way the `TimeInterval` overloads of RxSwift 4
/// convert their arguments.
func rxTimeInterval(seconds: TimeInterval) -> RxTimeInterval {
    .milliseconds(Int(seconds * 1000.0))
}

// The RxSwift 4 overloads that took seconds as `TimeInterval`, before `RxTimeInterval`
// became `DispatchTimeInterval`.
extension ObservableType {
    /// `delay(_:scheduler:)` with the time in seconds.
    @available(*, deprecated, message: "Use DispatchTimeInterval overload instead.", renamed: "delay(_:scheduler:)")
    public func delay(_ dueTime: TimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        delay(rxTimeInterval(seconds: dueTime), scheduler: scheduler)
    }

    /// `timeout(_:scheduler:)` with the time in seconds.
    @available(*, deprecated, message: "Use DispatchTimeInterval overload instead.", renamed: "timeout(_:scheduler:)")
    public func timeout(_ dueTime: TimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        timeout(rxTimeInterval(seconds: dueTime), scheduler: scheduler)
    }

    /// `timeout(_:other:scheduler:)` with the time in seconds.
    @available(*, deprecated, message: "Use DispatchTimeInterval overload instead.", renamed: "timeout(_:other:scheduler:)")
    public func timeout<OtherSource: ObservableConvertibleType>(_ dueTime: TimeInterval, other: OtherSource, scheduler: SchedulerType) -> Observable<Element> where Element == OtherSource.Element {
        timeout(rxTimeInterval(seconds: dueTime), other: other, scheduler: scheduler)
    }

    /// `skip(_:scheduler:)` with the time in seconds.
    @available(*, deprecated, message: "Use DispatchTimeInterval overload instead.", renamed: "skip(_:scheduler:)")
    public func skip(_ duration: TimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        skip(rxTimeInterval(seconds: duration), scheduler: scheduler)
    }

    /// `throttle(_:latest:scheduler:)` with the time in seconds.
    @available(*, deprecated, message: "Use DispatchTimeInterval overload instead.", renamed: "throttle(_:latest:scheduler:)")
    public func throttle(_ dueTime: TimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Observable<Element> {
        throttle(rxTimeInterval(seconds: dueTime), latest: latest, scheduler: scheduler)
    }

    /// `take(for:scheduler:)` with the time in seconds.
    @available(*, deprecated, message: "Use DispatchTimeInterval overload instead.", renamed: "take(for:scheduler:)")
    public func take(_ duration: TimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        take(for: rxTimeInterval(seconds: duration), scheduler: scheduler)
    }

    /// `delaySubscription(_:scheduler:)` with the time in seconds.
    @available(*, deprecated, message: "Use DispatchTimeInterval overload instead.", renamed: "delaySubscription(_:scheduler:)")
    public func delaySubscription(_ dueTime: TimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        delaySubscription(rxTimeInterval(seconds: dueTime), scheduler: scheduler)
    }

    /// `window(timeSpan:count:scheduler:)` with the time in seconds.
    @available(*, deprecated, message: "Use DispatchTimeInterval overload instead.", renamed: "window(timeSpan:count:scheduler:)")
    public func window(timeSpan: TimeInterval, count: Int, scheduler: SchedulerType) -> Observable<Observable<Element>> {
        window(timeSpan: rxTimeInterval(seconds: timeSpan), count: count, scheduler: scheduler)
    }

    /// `buffer(timeSpan:count:scheduler:)` with the time in seconds.
    @available(*, deprecated, message: "Use DispatchTimeInterval overload instead.", renamed: "buffer(timeSpan:count:scheduler:)")
    public func buffer(timeSpan: TimeInterval, count: Int, scheduler: SchedulerType) -> Observable<[Element]> {
        buffer(timeSpan: rxTimeInterval(seconds: timeSpan), count: count, scheduler: scheduler)
    }
}

extension ObservableType where Element: RxAbstractInteger {
    /// `interval(_:scheduler:)` with the time in seconds.
    @available(*, deprecated, message: "Use DispatchTimeInterval overload instead.", renamed: "interval(_:scheduler:)")
    public static func interval(_ period: TimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        interval(rxTimeInterval(seconds: period), scheduler: scheduler)
    }

    /// `timer(_:period:scheduler:)` with the times in seconds.
    @available(*, deprecated, message: "Use DispatchTimeInterval overload instead.", renamed: "timer(_:period:scheduler:)")
    public static func timer(_ dueTime: TimeInterval, period: TimeInterval? = nil, scheduler: SchedulerType) -> Observable<Element> {
        timer(rxTimeInterval(seconds: dueTime), period: period.map { rxTimeInterval(seconds: $0) }, scheduler: scheduler)
    }
}
