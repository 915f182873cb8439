import RxSwift
import RxRelay

extension PublishRelay {
    /// The relay as a `Signal`: every value accepted from now on, each moved to the signal's
    /// scheduler.
    public func asSignal() -> Signal<Element> {
        Signal(asObservable().observe(on: SignalSharingStrategy.scheduler))
    }
}
