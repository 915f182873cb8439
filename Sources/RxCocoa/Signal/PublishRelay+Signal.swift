import Rx
import RxRelay

extension PublishRelay {
    /// The relay as a `Signal`: every value accepted from now on. Values go out on the thread
    /// that accepts them, so accept them on the signal's scheduler.
    public func asSignal() -> Signal<Element> {
        Signal(asObservable())
    }
}
