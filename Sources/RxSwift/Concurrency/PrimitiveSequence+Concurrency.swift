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

    /// A `Single` of the result of `work`, which runs in a new task for each subscriber; an
    /// error it throws is the `Single`'s error. Disposing the subscription cancels the task.
    ///
    /// Disfavoured, as in RxSwift, so that `Single.create { observer in ... }` still means the
    /// observer-based `create(subscribe:)`.
    ///
    /// - parameter detached: Whether the task is detached from the subscribing task (its actor,
    ///   priority and task-local values); `false` makes a child-like `Task`.
    /// - parameter priority: The priority of the task.
    /// - parameter work: The asynchronous work whose result is the element.
    /// - returns: The `Single`.
    @_disfavoredOverload
    public static func create(
        detached: Bool = false,
        priority: TaskPriority? = nil,
        work: @Sendable @escaping () async throws -> Element
    ) -> PrimitiveSequence<Trait, Element> {
        Single.create { observer in
            // The task sends the one result; Rx observers take events from any thread.
            let transfer = UncheckedTransfer(observer)
            let operation: @Sendable () async -> Void = {
                do {
                    let element = try await work()
                    transfer.value(.success(element))
                } catch {
                    transfer.value(.failure(error))
                }
            }
            let task = detached ? Task.detached(priority: priority, operation: operation) : Task(priority: priority, operation: operation)
            return Disposables.create { task.cancel() }
        }
    }

    /// A `Single` that runs `block` in a new `Task` for each subscriber and sends its result
    /// or error; disposing the subscription cancels the task. The same as
    /// `create(work: block)`; kept for code written against this library before it had
    /// RxSwift's spelling.
    public static func from(_ block: @escaping @Sendable () async throws -> Element) -> Single<Element> {
        create(work: block)
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
    /// `block` must be `@Sendable`: it runs in another task.
    public static func from(_ block: (@Sendable () async throws -> Element)?) -> Maybe<Element> {
        .create { observer in
            let transfer = UncheckedTransfer(observer) // Rx observers take events from any thread
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
    /// `block` must be `@Sendable`: it runs in another task.
    public static func from(_ block: @escaping @Sendable () async throws -> Void) -> Completable {
        .create { observer in
            let transfer = UncheckedTransfer(observer) // Rx observers take events from any thread
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
