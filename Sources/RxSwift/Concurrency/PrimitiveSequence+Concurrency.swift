extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Awaits the element of the `Single`, or throws its error.
    ///
    /// Awaiting subscribes; cancelling the awaiting task disposes the subscription and throws
    /// `CancellationError` (RxSwift disposes but never resumes the task).
    public var value: Element {
        get async throws {
            try await SubscriptionContinuation<Element>.value { resume in
                primitiveSequence.subscribe { event in
                    switch event {
                    case .success(let element): resume(.success(element))
                    case .failure(let error): resume(.failure(error))
                    }
                }
            }
        }
    }

    /// A `Single` that runs `block` in a new `Task` for each subscriber and sends its result
    /// or error; disposing the subscription cancels the task.
    ///
    /// Differs from RxSwift in Swift 6 only: `block` runs in another task, so it must be
    /// `@Sendable` (closure literals that capture only `Sendable` values already are).
    public static func from(_ block: @escaping @Sendable () async throws -> Element) -> Single<Element> {
        .create { observer in
            // The task sends the one result; Rx observers take events from any thread.
            let transfer = UncheckedTransfer(observer)
            let task = Task {
                do {
                    let element = try await block()
                    transfer.value(.success(element))
                } catch {
                    transfer.value(.failure(error))
                }
            }
            return Disposables.create { task.cancel() }
        }
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Awaits the element of the `Maybe`: `nil` if it completes empty; throws its error.
    ///
    /// Cancelling the awaiting task disposes the subscription and throws `CancellationError`.
    public var value: Element? {
        get async throws {
            try await SubscriptionContinuation<Element?>.value { resume in
                primitiveSequence.subscribe { event in
                    switch event {
                    case .success(let element): resume(.success(element))
                    case .completed: resume(.success(nil))
                    case .error(let error): resume(.failure(error))
                    }
                }
            }
        }
    }

    /// A `Maybe` that runs `block` in a new `Task` for each subscriber and sends its result or
    /// error, or completes empty when `block` is `nil`; disposing the subscription cancels the
    /// task.
    ///
    /// Differs from RxSwift in Swift 6 only: `block` must be `@Sendable` (see `Single.from`).
    public static func from(_ block: (@Sendable () async throws -> Element)?) -> Maybe<Element> {
        .create { observer in
            let transfer = UncheckedTransfer(observer) // see `Single.from`
            let task = Task {
                guard let block else {
                    transfer.value(.completed)
                    return
                }
                do {
                    let element = try await block()
                    transfer.value(.success(element))
                } catch {
                    transfer.value(.error(error))
                }
            }
            return Disposables.create { task.cancel() }
        }
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Awaits the completion of the `Completable`, or throws its error.
    ///
    /// Cancelling the awaiting task disposes the subscription and throws `CancellationError`.
    public var value: Void {
        get async throws {
            try await SubscriptionContinuation<Void>.value { resume in
                primitiveSequence.subscribe { event in
                    switch event {
                    case .completed: resume(.success(()))
                    case .error(let error): resume(.failure(error))
                    }
                }
            }
        }
    }

    /// A `Completable` that runs `block` in a new `Task` for each subscriber and completes, or
    /// fails with its error; disposing the subscription cancels the task.
    ///
    /// Differs from RxSwift in Swift 6 only: `block` must be `@Sendable` (see `Single.from`).
    public static func from(_ block: @escaping @Sendable () async throws -> Void) -> Completable {
        .create { observer in
            let transfer = UncheckedTransfer(observer) // see `Single.from`
            let task = Task {
                do {
                    try await block()
                    transfer.value(.completed)
                } catch {
                    transfer.value(.error(error))
                }
            }
            return Disposables.create { task.cancel() }
        }
    }
}
