import RxSwift

/// A `SharedSequence` for events: it never fails, delivers on `MainScheduler` (through
/// `SharingScheduler`), and shares one subscription without replaying anything to new
/// subscribers (`share(scope: .whileConnected)`).
public typealias Signal<Element> = SharedSequence<SignalSharingStrategy, Element>

/// The sharing strategy of `Signal`.
public struct SignalSharingStrategy: SharingStrategyProtocol {
    /// `SharingScheduler.make()`: a new `MainScheduler()` outside tests.
    public static var scheduler: SchedulerType {
        SharingScheduler.make()
    }

    /// Shares `source` without replay while connected.
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(scope: .whileConnected)
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// The sequence as a `Signal`.
    public func asSignal() -> Signal<Element> {
        asSharedSequence()
    }
}
