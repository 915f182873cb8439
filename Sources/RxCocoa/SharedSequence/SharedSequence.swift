import RxSwift

/// A sequence for driving a user interface (`Driver`, `Signal`): it never fails, sends its
/// events on `SharingStrategy.scheduler`, and shares one subscription to its source among
/// all subscribers the way `SharingStrategy.share` says.
///
/// Its operators keep these guarantees; `asObservable()` leaves them behind.
public struct SharedSequence<SharingStrategy: SharingStrategyProtocol, Element>: SharedSequenceConvertibleType, ObservableConvertibleType {
    let source: Observable<Element>

    /// Wraps `source`, shared by `SharingStrategy.share`. `source` must never fail and must
    /// send its events on `SharingStrategy.scheduler`.
    init(_ source: Observable<Element>) {
        self.source = SharingStrategy.share(source)
    }

    /// Wraps `source` as it is (it already keeps the guarantees, sharing included).
    init(raw: Observable<Element>) {
        self.source = raw
    }

    /// The shared sequence as an `Observable`.
    public func asObservable() -> Observable<Element> {
        source
    }

    /// Returns `self`.
    public func asSharedSequence() -> SharedSequence<SharingStrategy, Element> {
        self
    }

    /// The shared sequence as an `Infallible`: the same events (it never fails), delivered on
    /// its sharing strategy's scheduler.
    public func asInfallible() -> Infallible<Element> {
        asInfallible(onErrorFallbackTo: .empty())
    }
}

/// How a kind of `SharedSequence` delivers and shares its events.
public protocol SharingStrategyProtocol {
    /// The scheduler every event is delivered on.
    static var scheduler: SchedulerType { get }

    /// Shares `source` among subscribers (for example `share(replay: 1)` for `Driver`).
    static func share<Element>(_ source: Observable<Element>) -> Observable<Element>
}

/// A type that can be converted to a `SharedSequence`.
public protocol SharedSequenceConvertibleType: ObservableConvertibleType {
    /// The sharing strategy of the resulting `SharedSequence`.
    associatedtype SharingStrategy: SharingStrategyProtocol

    /// Converts `self` to a `SharedSequence`.
    func asSharedSequence() -> SharedSequence<SharingStrategy, Element>
}

extension SharedSequenceConvertibleType {
    /// The shared sequence as an `Observable`.
    public func asObservable() -> Observable<Element> {
        asSharedSequence().asObservable()
    }
}

// MARK: Creation

extension SharedSequence {
    /// A shared sequence that completes at once, on `SharingStrategy.scheduler`.
    public static func empty() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.empty().subscribe(on: SharingStrategy.scheduler))
    }

    /// A shared sequence that never sends anything.
    public static func never() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.never())
    }

    /// A shared sequence of `element`, then completion, on `SharingStrategy.scheduler`.
    public static func just(_ element: Element) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.just(element).subscribe(on: SharingStrategy.scheduler))
    }

    /// A shared sequence that calls `observableFactory` for each subscription to its shared
    /// source and subscribes to the result.
    public static func deferred(_ observableFactory: @escaping () -> SharedSequence<SharingStrategy, Element>) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.deferred { observableFactory().asObservable() })
    }

    /// A shared sequence of `elements`, sent on `SharingStrategy.scheduler`, then completion.
    public static func of(_ elements: Element...) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(elements, scheduler: SharingStrategy.scheduler))
    }

    /// A shared sequence of the elements of `array`, sent on `SharingStrategy.scheduler`.
    public static func from(_ array: [Element]) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(array, scheduler: SharingStrategy.scheduler))
    }

    /// A shared sequence of the elements of `sequence`, sent on `SharingStrategy.scheduler`.
    public static func from<Sequence: Swift.Sequence>(_ sequence: Sequence) -> SharedSequence<SharingStrategy, Element> where Sequence.Element == Element {
        SharedSequence(raw: Observable.from(sequence, scheduler: SharingStrategy.scheduler))
    }

    /// A shared sequence of the value of `optional`, if any, then completion.
    public static func from(optional: Element?) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(optional: optional, scheduler: SharingStrategy.scheduler))
    }
}

extension SharedSequence where Element: FixedWidthInteger {
    /// An endless shared sequence of 0, 1, 2, ... one every `period`.
    ///
    /// RxSwift spells the constraint `RxAbstractInteger`, its alias of `FixedWidthInteger`.
    public static func interval(_ period: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.interval(period, scheduler: SharingStrategy.scheduler))
    }

    /// A shared sequence of 0 after `dueTime`, then 1, 2, ... every `period`.
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.timer(dueTime, period: period, scheduler: SharingStrategy.scheduler))
    }
}
