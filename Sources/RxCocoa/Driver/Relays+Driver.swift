import RxSwift
import RxRelay

extension BehaviorRelay {
    /// The relay as a `Driver`: its current value, then every value accepted, each moved to
    /// the driver's scheduler.
    public func asDriver() -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}

extension PublishRelay {
    /// The relay as a `Driver`: every value accepted from now on, each moved to the driver's
    /// scheduler.
    public func asDriver() -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}
