import Rx
import RxRelay

extension BehaviorRelay {
    /// The relay as a `Driver`: its current value, then every value accepted. Values go out
    /// on the thread that accepts them, so accept them on the driver's scheduler.
    public func asDriver() -> Driver<Element> {
        Driver(asObservable())
    }
}
