import RxSwift

extension ObservableConvertibleType {
    /// The sequence as a `SharedSequence` of strategy `S`: its events move to `S.scheduler`
    /// and an error is replaced by `onErrorJustReturn`, then completion.
    public func asSharedSequence<S>(sharingStrategy: S.Type = S.self, onErrorJustReturn: Element) -> SharedSequence<S, Element> {
        SharedSequence(asObservable().observe(on: S.scheduler).catchAndReturn(onErrorJustReturn))
    }

    /// The sequence as a `SharedSequence` of strategy `S`: its events move to `S.scheduler`
    /// and after an error it continues with `onErrorDriveWith`.
    public func asSharedSequence<S>(sharingStrategy: S.Type = S.self, onErrorDriveWith: SharedSequence<S, Element>) -> SharedSequence<S, Element> {
        SharedSequence(asObservable().observe(on: S.scheduler).catch { _ in onErrorDriveWith.asObservable() })
    }

    /// The sequence as a `SharedSequence` of strategy `S`: its events move to `S.scheduler`
    /// and after an error it continues with the sequence `onErrorRecover` makes from it.
    public func asSharedSequence<S>(sharingStrategy: S.Type = S.self, onErrorRecover: @escaping (_ error: Swift.Error) -> SharedSequence<S, Element>) -> SharedSequence<S, Element> {
        SharedSequence(asObservable().observe(on: S.scheduler).catch { onErrorRecover($0).asObservable() })
    }
}
