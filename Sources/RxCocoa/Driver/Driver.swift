import RxSwift

/// A `SharedSequence` for state: it never fails, delivers on `MainScheduler` (through
/// `SharingScheduler`), and replays its latest element to each new subscriber while any is
/// subscribed (`share(replay: 1, scope: .whileConnected)`).
public typealias Driver<Element> = SharedSequence<DriverSharingStrategy, Element>

/// The sharing strategy of `Driver`.
public struct DriverSharingStrategy: SharingStrategyProtocol {
    /// `SharingScheduler.make()`: a new `MainScheduler()` outside tests.
    public static var scheduler: SchedulerType {
        SharingScheduler.make()
    }

    /// Shares `source` replaying its latest element while connected.
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(replay: 1, scope: .whileConnected)
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// The sequence as a `Driver`.
    public func asDriver() -> Driver<Element> {
        asSharedSequence()
    }
}
