// Written the way RxSwift's example apps write their activity indicator, importing only
// RxSwift and RxCocoa: `NSRecursiveLock` must come with `import RxCocoa`, as on Apple
// platforms, where RxCocoa's umbrella header brings Foundation.
import RxSwift
import RxCocoa

/// A resource held while one tracked sequence runs: counted up when made, down when disposed.
private struct RunningToken<Element>: ObservableConvertibleType, Disposable {
    private let source: Observable<Element>
    private let release: Cancelable

    init(source: Observable<Element>, onDispose: @escaping () -> Void) {
        self.source = source
        release = Disposables.create(with: onDispose)
    }

    func dispose() {
        release.dispose()
    }

    func asObservable() -> Observable<Element> {
        source
    }
}

/// `true` while at least one tracked sequence is subscribed; a Driver, so it never errors
/// and delivers on the main scheduler.
public final class BusyIndicator: SharedSequenceConvertibleType {
    public typealias Element = Bool
    public typealias SharingStrategy = DriverSharingStrategy

    private let lock = NSRecursiveLock()
    private let count = BehaviorRelay(value: 0)
    private let busy: SharedSequence<SharingStrategy, Bool>

    public init() {
        busy = count.asDriver().map { $0 > 0 }.distinctUntilChanged()
    }

    fileprivate func track<Source: ObservableConvertibleType>(_ source: Source) -> Observable<Source.Element> {
        Observable.using({ () -> RunningToken<Source.Element> in
            self.begin()
            return RunningToken(source: source.asObservable(), onDispose: self.end)
        }, observableFactory: { token in token.asObservable() })
    }

    private func begin() {
        lock.lock()
        count.accept(count.value + 1)
        lock.unlock()
    }

    private func end() {
        lock.lock()
        count.accept(count.value - 1)
        lock.unlock()
    }

    public func asSharedSequence() -> SharedSequence<SharingStrategy, Element> {
        busy
    }
}

extension ObservableConvertibleType {
    /// This sequence, counted by `indicator` while it is subscribed.
    public func trackBusy(_ indicator: BusyIndicator) -> Observable<Element> {
        indicator.track(self)
    }
}
