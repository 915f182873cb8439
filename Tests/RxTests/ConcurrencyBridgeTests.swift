import Foundation
import RxSwift
import XCTest

/// The async/await bridges: `values`, the traits' `value`, `from` and
/// `AsyncSequence.asObservable()`, with cancellation both ways.
final class ConcurrencyBridgeTests: RxTestCase {
    func testObservableValuesIteratesElementsThenCompletes() async throws {
        var received: [Int] = []
        for try await value in Observable.of(1, 2, 3).values {
            received.append(value)
        }
        XCTAssertEqual(received, [1, 2, 3])
    }

    func testObservableValuesThrowsTheError() async {
        var received: [Int] = []
        do {
            for try await value in Observable<Int>.create({ observer in
                observer.onNext(1)
                observer.onError(testError)
                return Disposables.create()
            }).values {
                received.append(value)
            }
            XCTFail("the stream must throw")
        } catch {
            XCTAssertEqual(error as? TestError, testError)
        }
        XCTAssertEqual(received, [1])
    }

    func testCancellingTheIteratingTaskDisposesTheSubscription() async {
        let disposed = Signal()
        let subscribed = Signal()
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            subscribed.fire()
            return Disposables.create { disposed.fire() }
        }
        let stream = source.values
        let task = Task {
            var count = 0
            do {
                for try await _ in stream { count += 1 }
            } catch {}
            return count
        }
        await subscribed.wait()
        task.cancel()
        await disposed.wait()
        let count = await task.value
        XCTAssertEqual(count, 1)
    }

    func testInfallibleValuesEndsAtCompletionAndAtDisposal() async {
        var received: [String] = []
        for await value in Infallible.of("a", "b").values {
            received.append(value)
        }
        XCTAssertEqual(received, ["a", "b"])

        // A source whose subscription is ended from inside (take(until:) completes the stream).
        let stop = PublishSubject<Void>()
        let subject = BehaviorSubject(value: 1)
        let stream = subject.asInfallible(onErrorJustReturn: 0).take(until: stop).values
        stop.onNext(())
        var after: [Int] = []
        for await value in stream { after.append(value) }
        XCTAssertEqual(after, [1])
    }

    func testSingleValueAndErrors() async throws {
        let value = try await Single.just(5).value
        XCTAssertEqual(value, 5)
        do {
            _ = try await Single<Int>.error(testError).value
            XCTFail("must throw")
        } catch {
            XCTAssertEqual(error as? TestError, testError)
        }
        let some = try await Maybe.just("x").value
        XCTAssertEqual(some, "x")
        let none = try await Maybe<String>.empty().value
        XCTAssertNil(none)
        try await Completable.empty().value
    }

    func testCancellingAnAwaitedSingleDisposesItsSubscriptionAndThrowsCancellation() async {
        let disposed = Signal()
        let subscribed = Signal()
        let pending = Single<Int>.create { _ in
            subscribed.fire()
            return Disposables.create { disposed.fire() }
        }
        let task = Task { try await pending.value }
        await subscribed.wait()
        task.cancel()
        await disposed.wait()
        do {
            _ = try await task.value
            XCTFail("must throw")
        } catch {
            XCTAssertTrue(error is CancellationError)
        }
    }

    func testTheTraitsFromSendTheResultOfTheirBlock() async throws {
        // `Single.from` is `Single.create(work:)`; its cancellation is tested with `create`.
        let value = try await Single.from { 21 * 2 }.value
        XCTAssertEqual(value, 42)

        try await Completable.from {}.value
        let maybe = try await Maybe<Int>.from(nil).value
        XCTAssertNil(maybe)
    }

    func testAsyncSequenceAsObservableSendsElementsThenCompletes() async throws {
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        let values = try await stream.asObservable().toArray().value
        XCTAssertEqual(values, [1, 2, 3])
    }

    func testAsyncSequenceErrorIsSentAsError() async {
        let stream = AsyncThrowingStream<Int, Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: testError)
        }
        do {
            _ = try await stream.asObservable(priority: .high).toArray().value
            XCTFail("must fail")
        } catch {
            XCTAssertEqual(error as? TestError, testError)
        }
    }

    func testDisposingTheSubscriptionCancelsTheIteratingTask() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let terminated = Signal()
        continuation.onTermination = { termination in
            if case .cancelled = termination { terminated.fire() }
        }
        let first = Signal()
        let subscription = stream.asObservable().subscribe(onNext: { _ in first.fire() })
        continuation.yield(1)
        await first.wait()
        subscription.dispose()
        await terminated.wait()
    }
}

/// `Single.create(detached:priority:work:)` and `AsyncSequence.asObservable(priority:)`: where
/// the work runs (detached or not, at which priority), results, errors and cancellation.
final class AsyncCreationTests: RxTestCase {
    @TaskLocal static var marker: String?

    func testAsObservableIteratesInADetachedTaskAtTheGivenPriority() async throws {
        let probe = ContextProbe()
        // A task-local value is inherited by `Task {}` but not by `Task.detached`.
        let values = try await Self.$marker.withValue("subscriber") {
            try await probe.sequence(count: 2).asObservable(priority: .low).toArray().value
        }
        XCTAssertEqual(values, [0, 1])
        XCTAssertEqual(probe.markers, [nil, nil, nil])
        XCTAssertEqual(probe.priorities, [.low, .low, .low])
    }

    func testSingleCreateWorkSendsTheResultOrTheError() async throws {
        let value = try await Single.create { 6 * 7 }.value
        XCTAssertEqual(value, 42)
        do {
            _ = try await Single<Int>.create(work: { throw testError }).value
            XCTFail("must fail")
        } catch {
            XCTAssertEqual(error as? TestError, testError)
        }
        // The observer-based `create` still wins for a closure taking the observer.
        let observerBased = try await Single<Int>.create { observer in
            observer(.success(1))
            return Disposables.create()
        }.value
        XCTAssertEqual(observerBased, 1)
    }

    func testSingleCreateRunsDetachedOnlyWhenAskedAtTheGivenPriority() async throws {
        let (inherited, detached) = try await Self.$marker.withValue("subscriber") {
            let inherited = try await Single.create(priority: .high) { (Self.marker, Task.currentPriority) }.value
            let detached = try await Single.create(detached: true, priority: .low) { (Self.marker, Task.currentPriority) }.value
            return (inherited, detached)
        }
        XCTAssertEqual(inherited.0, "subscriber")
        XCTAssertEqual(inherited.1, .high)
        XCTAssertNil(detached.0)
        XCTAssertEqual(detached.1, .low)
    }

    func testDisposingSingleCreateCancelsTheWork() async {
        let started = Signal()
        let cancelled = Signal()
        let subscription = Single<Int>.create(detached: true) {
            started.fire()
            do {
                try await Task.sleep(for: .seconds(60))
            } catch {
                cancelled.fire()
                throw error
            }
            return 0
        }.subscribe(onSuccess: { _ in XCTFail("must not succeed") }, onFailure: { _ in XCTFail("a disposed single sends nothing") })
        await started.wait()
        subscription.dispose()
        await cancelled.wait()
    }
}

/// An async sequence of `0..<count` that records, at each `next()`, the task-local marker and
/// the priority of the task iterating it.
private final class ContextProbe: @unchecked Sendable { // `lock` guards the records
    private let lock = NSLock()
    private var records: [(String?, TaskPriority)] = []

    var markers: [String?] { lock.withLock { records.map(\.0) } }
    var priorities: [TaskPriority] { lock.withLock { records.map(\.1) } }

    func sequence(count: Int) -> AsyncStream<Int> {
        AsyncStream(unfolding: { [self] in
            let index = record()
            return index < count ? index : nil
        })
    }

    /// Records the iterating task's context; returns how many records were made before.
    private func record() -> Int {
        let entry = (AsyncCreationTests.marker, Task.currentPriority)
        return lock.withLock {
            records.append(entry)
            return records.count - 1
        }
    }
}

/// A one-shot flag an async test can wait for, fired from any thread.
private final class Signal: @unchecked Sendable { // `lock` guards `fired` and `waiters`
    private let lock = NSLock()
    private var fired = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func fire() {
        lock.lock()
        fired = true
        let toResume = waiters
        waiters = []
        lock.unlock()
        toResume.forEach { $0.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            lock.lock()
            if fired {
                lock.unlock()
                continuation.resume()
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }
}
