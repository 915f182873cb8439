import RxSwift

// `block` must be `@Sendable` because it runs in a task (see `Single.from`).

extension SharedSequence where SharingStrategy == SignalSharingStrategy {
    /// A `Signal` of the result of `block`, run in a new task for each subscription to its
    /// shared source; an error is replaced by `onErrorJustReturn`.
    public static func from(_ block: @escaping @Sendable () async throws -> Element, onErrorJustReturn: Element) -> Signal<Element> {
        Single.from(block).asSignal(onErrorJustReturn: onErrorJustReturn)
    }

    /// A `Signal` of the result of `block`, run in a new task for each subscription to its
    /// shared source; after an error it continues with `onErrorSignalWith`.
    public static func from(_ block: @escaping @Sendable () async throws -> Element, onErrorSignalWith: Signal<Element>) -> Signal<Element> {
        Single.from(block).asSignal(onErrorSignalWith: onErrorSignalWith)
    }

    /// A `Signal` of the result of `block`, run in a new task for each subscription to its
    /// shared source; after an error it continues with the signal `onErrorRecover` makes.
    public static func from(_ block: @escaping @Sendable () async throws -> Element, onErrorRecover: @escaping (_ error: Swift.Error) -> Signal<Element>) -> Signal<Element> {
        Single.from(block).asSignal(onErrorRecover: onErrorRecover)
    }
}
