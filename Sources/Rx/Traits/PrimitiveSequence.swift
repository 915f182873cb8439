/// An observable sequence with a guarantee about its shape, given by `Trait`
/// (`Single`: one element or an error; `Maybe`: at most one element; `Completable`: no element).
///
/// It wraps an `Observable` whose events keep to the trait's rules.
public struct PrimitiveSequence<Trait, Element> {
    let source: Observable<Element>

    /// Wraps `source`, which must keep to the trait's rules.
    init(raw source: Observable<Element>) {
        self.source = source
    }
}

/// A type that is a `PrimitiveSequence` (lets extensions constrain `Trait`).
public protocol PrimitiveSequenceType {
    /// The trait: `SingleTrait`, `MaybeTrait` or `CompletableTrait`.
    associatedtype Trait
    /// Type of the element.
    associatedtype Element

    /// The sequence itself.
    var primitiveSequence: PrimitiveSequence<Trait, Element> { get }
}

extension PrimitiveSequence: PrimitiveSequenceType {
    /// The sequence itself.
    public var primitiveSequence: PrimitiveSequence<Trait, Element> { self }
}

extension PrimitiveSequence: ObservableConvertibleType {
    /// The events of the sequence as an `Observable`.
    public func asObservable() -> Observable<Element> {
        source
    }
}

extension PrimitiveSequence {
    /// A sequence that calls `factory` for each subscriber and subscribes it to the result;
    /// a thrown error is sent as the sequence's error.
    ///
    /// - parameter factory: Makes the sequence for one subscriber.
    /// - returns: The sequence.
    public static func deferred(_ factory: @escaping () throws -> PrimitiveSequence<Trait, Element>) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.deferred { try factory().asObservable() })
    }

    /// Shifts the sequence's events later by `dueTime`, on `scheduler` (errors are not delayed).
    ///
    /// - returns: The delayed sequence.
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.delay(dueTime, scheduler: scheduler))
    }

    /// On an error, continues with the sequence `handler` makes from it (see `Observable.catch`).
    ///
    /// - returns: The sequence, or its replacement after an error.
    public func `catch`(_ handler: @escaping (Swift.Error) throws -> PrimitiveSequence<Trait, Element>) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.catch { try handler($0).asObservable() })
    }

    /// On an error, subscribes again, up to `maxAttemptCount` subscriptions in all (see
    /// `Observable.retry(_:)`).
    ///
    /// - returns: The sequence, through up to `maxAttemptCount` subscriptions.
    public func retry(_ maxAttemptCount: Int) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(maxAttemptCount))
    }

    /// On an error, subscribes again when the trigger made from the errors asks for it (see
    /// `Observable.retry(when:)`).
    ///
    /// - returns: The sequence, through the resubscriptions the trigger asks for.
    public func retry<TriggerObservable: ObservableType, Error: Swift.Error>(when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }

    /// On an error, subscribes again when the trigger made from the errors asks for it (see
    /// `Observable.retry(when:)`).
    ///
    /// - returns: The sequence, through the resubscriptions the trigger asks for.
    public func retry<TriggerObservable: ObservableType>(when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }

    /// Prints the sequence's events (see `Observable.debug`).
    ///
    /// - returns: The same sequence.
    public func debug(_ identifier: String? = nil, trimOutput: Bool = false, file: String = #file, line: UInt = #line, function: String = #function) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }
}
