import RxCocoa
import RxSwift

/// Counts the requests under way, as RxSwift's example apps' `ActivityIndicator` does:
/// `true` while at least one runs. `BehaviorRelay` comes with `import RxCocoa`.
public final class ActivityIndicator: SharedSequenceConvertibleType {
    public typealias SharingStrategy = DriverSharingStrategy
    public typealias Element = Bool

    private let running = BehaviorRelay(value: 0)
    private let loading: Driver<Bool>

    public init() {
        loading = running.asDriver().map { $0 > 0 }.distinctUntilChanged()
    }

    /// `source`, counted as running from its subscription to its disposal.
    public func trackActivity<Source: ObservableConvertibleType>(_ source: Source) -> Observable<Source.Element> {
        source.asObservable()
            .do(onSubscribe: { [running] in running.accept(running.value + 1) },
                onDispose: { [running] in running.accept(running.value - 1) })
    }

    public func asSharedSequence() -> SharedSequence<DriverSharingStrategy, Bool> {
        loading
    }
}
