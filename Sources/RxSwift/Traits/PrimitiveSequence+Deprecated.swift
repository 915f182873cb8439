#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Trait overloads RxSwift 6 still carries in its Deprecated.swift.

extension PrimitiveSequence {
    /// `delay(_:scheduler:)` with the time in seconds.
    @available(*, deprecated, message: "Use DispatchTimeInterval overload instead.", renamed: "delay(_:scheduler:)")
    public func delay(_ dueTime: TimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        delay(rxTimeInterval(seconds: dueTime), scheduler: scheduler)
    }

    /// `delaySubscription(_:scheduler:)` with the time in seconds.
    @available(*, deprecated, message: "Use DispatchTimeInterval overload instead.", renamed: "delaySubscription(_:scheduler:)")
    public func delaySubscription(_ dueTime: TimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        delaySubscription(rxTimeInterval(seconds: dueTime), scheduler: scheduler)
    }

    /// `timeout(_:scheduler:)` with the time in seconds.
    @available(*, deprecated, message: "Use DispatchTimeInterval overload instead.", renamed: "timeout(_:scheduler:)")
    public func timeout(_ dueTime: TimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        timeout(rxTimeInterval(seconds: dueTime), scheduler: scheduler)
    }

    /// `timeout(_:other:scheduler:)` with the time in seconds.
    @available(*, deprecated, message: "Use DispatchTimeInterval overload instead.", renamed: "timeout(_:other:scheduler:)")
    public func timeout(_ dueTime: TimeInterval, other: PrimitiveSequence<Trait, Element>, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        timeout(rxTimeInterval(seconds: dueTime), other: other, scheduler: scheduler)
    }
}

extension PrimitiveSequenceType where Element: RxAbstractInteger {
    /// `timer(_:scheduler:)` with the time in seconds.
    @available(*, deprecated, message: "Use DispatchTimeInterval overload instead.", renamed: "timer(_:scheduler:)")
    public static func timer(_ dueTime: TimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        timer(rxTimeInterval(seconds: dueTime), scheduler: scheduler)
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// RxSwift 4 form of `do(onSuccess:...)`; `onNext` has no default so that calls naming
    /// it pick this overload.
    @available(*, deprecated, renamed: "do(onSuccess:onError:onSubscribe:onSubscribed:onDispose:)")
    public func `do`(onNext: ((Element) throws -> Void)?, onError: ((Swift.Error) throws -> Void)? = nil, onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil, onDispose: (() -> Void)? = nil) -> Single<Element> {
        `do`(onSuccess: onNext, onError: onError, onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose)
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Old name of `Completable.zip(_:)`.
    @available(*, deprecated, message: "Use Completable.zip instead.", renamed: "zip")
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Completable where Collection.Element == Completable {
        zip(sources)
    }

    /// Old name of `Completable.zip(_:)`.
    @available(*, deprecated, message: "Use Completable.zip instead.", renamed: "zip")
    public static func merge(_ sources: [Completable]) -> Completable {
        zip(sources)
    }

    /// Old name of `Completable.zip(_:)`.
    @available(*, deprecated, message: "Use Completable.zip instead.", renamed: "zip")
    public static func merge(_ sources: Completable...) -> Completable {
        zip(sources)
    }
}
