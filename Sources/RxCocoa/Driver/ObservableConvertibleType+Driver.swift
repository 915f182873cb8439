import RxSwift

extension ObservableConvertibleType {
    /// The sequence as a `Driver`: its events move to the driver's scheduler and an error is
    /// replaced by `onErrorJustReturn`, then completion.
    ///
    /// - returns: The `Driver`.
    public func asDriver(onErrorJustReturn: Element) -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler).catchAndReturn(onErrorJustReturn))
    }

    /// The sequence as a `Driver`: its events move to the driver's scheduler and after an
    /// error it continues with `onErrorDriveWith`.
    ///
    /// - returns: The `Driver`.
    public func asDriver(onErrorDriveWith: Driver<Element>) -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler).catch { _ in onErrorDriveWith.asObservable() })
    }

    /// The sequence as a `Driver`: its events move to the driver's scheduler and after an
    /// error it continues with the `Driver` that `onErrorRecover` makes from it.
    ///
    /// - returns: The `Driver`.
    public func asDriver(onErrorRecover: @escaping (_ error: Swift.Error) -> Driver<Element>) -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler).catch { onErrorRecover($0).asObservable() })
    }
}

extension InfallibleType {
    /// The `Infallible` as a `Driver`: its events move to the driver's scheduler.
    ///
    /// - returns: The `Driver`.
    public func asDriver() -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}
