import RxSwift

// As in RxSwift, these are instance methods of `Driver` (those of `Signal` are static).
// `block` must be `@Sendable` because it runs in a task (see `Single.from`).

extension SharedSequence where SharingStrategy == DriverSharingStrategy {
    /// A `Driver` of the result of `block`, run in a new task for each subscription to its
    /// shared source; an error is replaced by `onErrorJustReturn`.
    public func from(_ block: @escaping @Sendable () async throws -> Element, onErrorJustReturn: Element) -> Driver<Element> {
        Single.from(block).asDriver(onErrorJustReturn: onErrorJustReturn)
    }

    /// A `Driver` of the result of `block`, run in a new task for each subscription to its
    /// shared source; after an error it continues with `onErrorDriveWith`.
    public func from(_ block: @escaping @Sendable () async throws -> Element, onErrorDriveWith: Driver<Element>) -> Driver<Element> {
        Single.from(block).asDriver(onErrorDriveWith: onErrorDriveWith)
    }

    /// A `Driver` of the result of `block`, run in a new task for each subscription to its
    /// shared source; after an error it continues with the driver `onErrorRecover` makes.
    public func from(_ block: @escaping @Sendable () async throws -> Element, onErrorRecover: @escaping (Swift.Error) -> Driver<Element>) -> Driver<Element> {
        Single.from(block).asDriver(onErrorRecover: onErrorRecover)
    }
}
