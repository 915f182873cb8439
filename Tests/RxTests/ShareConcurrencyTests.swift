import Foundation
import RxSwift
import Synchronization
import XCTest

/// `share` and `multicast` under real threads: concurrent first subscriptions connect once
/// (RxSwift #2718), and nothing calls out (subscribes upstream, replays, tears down) while
/// holding the operator's lock, which would deadlock against a thread that holds a lock of
/// its own while it reaches into the operator (RxSwift #2698, #2703, #2711, #2713).
final class ShareConcurrencyTests: RxTestCase {
    private static let threads = 8
    private static let rounds = 200

    func testConcurrentFirstSubscriptionsToShareConnectOnce() {
        for replay in [0, 1] {
            for scope in [SubjectLifetimeScope.whileConnected, .forever] {
                for _ in 0..<Self.rounds {
                    let subscribed = Atomic<Int>(0)
                    let disposed = Atomic<Int>(0)
                    let shared = Observable<Int>.create { observer in
                        subscribed.add(1, ordering: .relaxed)
                        observer.onNext(1)
                        return Disposables.create { disposed.add(1, ordering: .relaxed) }
                    }.share(replay: replay, scope: scope)
                    let subscriptions = Locked<[Disposable]>([])
                    let barrier = Barrier(parties: Self.threads)
                    onThreads(Self.threads) {
                        barrier.arriveAndWait()
                        let subscription = shared.subscribe()
                        subscriptions.mutate { $0.append(subscription) }
                    }
                    XCTAssertEqual(subscribed.load(ordering: .relaxed), 1, "replay \(replay), \(scope): the source was subscribed more than once")
                    subscriptions.mutate { $0.forEach { $0.dispose() } }
                    XCTAssertEqual(disposed.load(ordering: .relaxed), 1, "replay \(replay), \(scope): the one connection was not torn down once")
                }
            }
        }
    }

    func testShareWithReplayDoesNotReplayHoldingItsLock() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        let keepConnected = shared.subscribe()
        subject.onNext(1)
        let probe = LockInversionProbe()
        let late = Locked<[Disposable]>([])
        let calloutTookForeignLock = probe.run(
            trigger: {
                // The replayed element reaches an observer that needs the foreign lock.
                let subscription = shared.subscribe(onNext: { _ in probe.callout() })
                late.mutate { $0.append(subscription) }
            },
            holdingForeignLock: {
                let subscription = shared.subscribe()
                late.mutate { $0.append(subscription) }
            }
        )
        XCTAssertTrue(calloutTookForeignLock, "share(replay:) replayed holding its lock")
        late.mutate { $0.forEach { $0.dispose() } }
        keepConnected.dispose()
    }

    func testShareDoesNotConnectHoldingItsLock() {
        let probe = LockInversionProbe()
        let shared = Observable<Int>.create { _ in
            probe.callout()
            return Disposables.create()
        }.share()
        let subscriptions = Locked<[Disposable]>([])
        let calloutTookForeignLock = probe.run(
            trigger: {
                let subscription = shared.subscribe()
                subscriptions.mutate { $0.append(subscription) }
            },
            holdingForeignLock: {
                let subscription = shared.subscribe()
                subscriptions.mutate { $0.append(subscription) }
            }
        )
        XCTAssertTrue(calloutTookForeignLock, "share connected to its source holding its lock")
        subscriptions.mutate { $0.forEach { $0.dispose() } }
    }

    func testShareDoesNotDisconnectHoldingItsLock() {
        let probe = LockInversionProbe()
        let shared = probe.sourceCallingOutOnTeardown().share()
        let first = shared.subscribe()
        let calloutTookForeignLock = probe.run(
            trigger: { first.dispose() },
            holdingForeignLock: { shared.subscribe().dispose() }
        )
        XCTAssertTrue(calloutTookForeignLock, "share tore its source subscription down holding its lock")
    }

    func testMulticastConnectionDoesNotTearDownHoldingItsLock() {
        let probe = LockInversionProbe()
        let connectable = probe.sourceCallingOutOnTeardown().multicast(PublishSubject())
        let connection = connectable.connect()
        let calloutTookForeignLock = probe.run(
            trigger: { connection.dispose() },
            holdingForeignLock: { connectable.subscribe().dispose() }
        )
        XCTAssertTrue(calloutTookForeignLock, "a multicast connection tore its source subscription down holding its lock")
    }

    func testMulticastDoesNotConnectHoldingItsLock() {
        let probe = LockInversionProbe()
        let connectable = Observable<Int>.create { _ in
            probe.callout()
            return Disposables.create()
        }.publish()
        let connection = Locked<Disposable?>(nil)
        let calloutTookForeignLock = probe.run(
            trigger: {
                let connected = connectable.connect()
                connection.mutate { $0 = connected }
            },
            holdingForeignLock: { connectable.subscribe().dispose() }
        )
        XCTAssertTrue(calloutTookForeignLock, "multicast connected to its source holding its lock")
        connection.mutate { $0?.dispose() }
    }

    func testZipOfACollectionDoesNotUnsubscribeHoldingItsLock() {
        let probe = LockInversionProbe()
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let firstTearingDownSlowly = probe.sourceCallingOutOnTeardown(forwarding: first.asObservable())
        let subscription = Observable.zip([firstTearingDownSlowly, second.asObservable()]).subscribe()
        let calloutTookForeignLock = probe.run(
            trigger: { first.onCompleted() },
            holdingForeignLock: { second.onNext(1) }
        )
        XCTAssertTrue(calloutTookForeignLock, "zip unsubscribed from a completed source holding its lock")
        subscription.dispose()
    }

    func testMergeDoesNotUnsubscribeAnInnerHoldingItsLock() {
        let probe = LockInversionProbe()
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let firstTearingDownSlowly = probe.sourceCallingOutOnTeardown(forwarding: first.asObservable())
        let subscription = Observable.merge(firstTearingDownSlowly, second.asObservable()).subscribe()
        let calloutTookForeignLock = probe.run(
            trigger: { first.onCompleted() },
            holdingForeignLock: { second.onNext(1) }
        )
        XCTAssertTrue(calloutTookForeignLock, "merge unsubscribed from a completed inner holding its lock")
        subscription.dispose()
    }
}

/// Drives a lock-order inversion: one thread takes a foreign lock (standing in for any lock
/// of the application or of another operator) and then reaches into the operator under test;
/// the other thread makes the operator call out into code that needs the foreign lock. If
/// the operator calls out holding its own lock, the two wait on each other: the callout gives
/// up after a timeout instead of hanging, and `run` reports it.
private final class LockInversionProbe: @unchecked Sendable { // the semaphores and the atomics order every access
    private let foreignLock = NSRecursiveLock()
    private let foreignLockHeld = DispatchSemaphore(value: 0)
    private let calloutStarted = DispatchSemaphore(value: 0)
    private let callouts = Atomic<Int>(0)
    private let tookForeignLock = Atomic<Bool>(false)

    /// The operator's callout: the first one signals that it started and tries the foreign
    /// lock for two seconds; later ones do nothing.
    func callout() {
        guard callouts.add(1, ordering: .relaxed).newValue == 1 else { return }
        calloutStarted.signal()
        if foreignLock.lock(before: Date().addingTimeInterval(2)) {
            foreignLock.unlock()
            tookForeignLock.store(true, ordering: .releasing)
        }
    }

    /// A source that sends the events of `forwarded` (none if `nil`) and calls out when its
    /// subscription is disposed.
    func sourceCallingOutOnTeardown(forwarding forwarded: Observable<Int>? = nil) -> Observable<Int> {
        Observable.create { observer in
            let subscription = forwarded?.subscribe(observer)
            return Disposables.create {
                self.callout()
                subscription?.dispose()
            }
        }
    }

    /// Runs `trigger` on one thread and, on another once the callout started, runs
    /// `holdingForeignLock` with the foreign lock held; returns whether the callout got the
    /// foreign lock (no inversion).
    func run(trigger: @escaping () -> Void, holdingForeignLock: @escaping () -> Void) -> Bool {
        // The closures use Rx objects, which are thread-safe; each runs on one thread.
        nonisolated(unsafe) let trigger = trigger
        nonisolated(unsafe) let holdingForeignLock = holdingForeignLock
        let finished = DispatchGroup()
        DispatchQueue.global().async(group: finished) {
            self.foreignLock.lock()
            self.foreignLockHeld.signal()
            if self.calloutStarted.wait(timeout: .now() + 5) == .success {
                holdingForeignLock()
            }
            self.foreignLock.unlock()
        }
        DispatchQueue.global().async(group: finished) {
            _ = self.foreignLockHeld.wait(timeout: .now() + 5)
            trigger()
        }
        XCTAssertEqual(finished.wait(timeout: .now() + 20), .success, "the threads did not finish")
        XCTAssertEqual(callouts.load(ordering: .relaxed) > 0, true, "the operator never called out")
        return tookForeignLock.load(ordering: .acquiring)
    }
}

/// Runs `body` on `count` threads of its own at once (a dispatch pool may run fewer at a
/// time than a barrier waits for) and returns when all are done.
private func onThreads(_ count: Int, _ body: @escaping () -> Void) {
    // `body` uses Rx objects, which are thread-safe.
    nonisolated(unsafe) let body = body
    let finished = DispatchGroup()
    for _ in 0..<count {
        finished.enter()
        Thread.detachNewThread {
            body()
            finished.leave()
        }
    }
    finished.wait()
}

/// Lets `parties` threads go on together once all of them arrived.
private final class Barrier: Sendable {
    private let parties: Int
    private let arrived = Atomic<Int>(0)

    init(parties: Int) {
        self.parties = parties
    }

    func arriveAndWait() {
        arrived.add(1, ordering: .acquiringAndReleasing)
        // Spinning (yielding the core to threads still to arrive) keeps the release as
        // simultaneous as the threads allow.
        while arrived.load(ordering: .acquiring) < parties {
            sched_yield()
        }
    }
}

/// A value guarded by a lock, for collecting results from several threads.
private final class Locked<Value>: @unchecked Sendable { // `lock` guards `value`
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func mutate(_ body: (inout Value) -> Void) {
        lock.withLock { body(&value) }
    }
}
