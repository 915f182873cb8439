import RxSwift

extension ObservableConvertibleType {
    /// The sequence as a `Signal`: its events move to the signal's scheduler and an error is
    /// replaced by `onErrorJustReturn`, then completion.
    ///
    /// - returns: The `Signal`.
    public func asSignal(onErrorJustReturn: Element) -> Signal<Element> {
        Signal(asObservable().observe(on: SignalSharingStrategy.scheduler).catchAndReturn(onErrorJustReturn))
    }

    /// The sequence as a `Signal`: its events move to the signal's scheduler and after an
    /// error it continues with `onErrorSignalWith`.
    ///
    /// - returns: The `Signal`.
    public func asSignal(onErrorSignalWith: Signal<Element>) -> Signal<Element> {
        Signal(asObservable().observe(on: SignalSharingStrategy.scheduler).catch { _ in onErrorSignalWith.asObservable() })
    }

    /// The sequence as a `Signal`: its events move to the signal's scheduler and after an
    /// error it continues with the `Signal` that `onErrorRecover` makes from it.
    ///
    /// - returns: The `Signal`.
    public func asSignal(onErrorRecover: @escaping (_ error: Swift.Error) -> Signal<Element>) -> Signal<Element> {
        Signal(asObservable().observe(on: SignalSharingStrategy.scheduler).catch { onErrorRecover($0).asObservable() })
    }
}
