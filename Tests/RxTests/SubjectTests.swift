import Foundation
import RxSwift
import RxTest
import XCTest

final class SubjectTests: RxTestCase {
    func testPublishSubjectSendsOnlyEventsAfterSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        var earlySubscription: Disposable?
        var lateSubscription: Disposable?
        scheduler.scheduleAt(100) { earlySubscription = subject.subscribe(early) }
        scheduler.scheduleAt(110) { subject.onNext(1) }
        scheduler.scheduleAt(200) { lateSubscription = subject.subscribe(late) }
        scheduler.scheduleAt(210) { subject.onNext(2) }
        scheduler.scheduleAt(300) { earlySubscription?.dispose() }
        scheduler.scheduleAt(310) { subject.onNext(3) }
        scheduler.scheduleAt(400) { subject.onCompleted() }
        scheduler.scheduleAt(410) { subject.onNext(4) }
        scheduler.start()
        XCTAssertEqual(early.events, [.next(110, 1), .next(210, 2)])
        XCTAssertEqual(late.events, [.next(210, 2), .next(310, 3), .completed(400)])
        XCTAssertFalse(subject.hasObservers)
        lateSubscription?.dispose()
    }

    func testPublishSubjectAfterTerminationReplaysTerminalEvent() {
        let subject = PublishSubject<Int>()
        subject.onError(testError)
        subject.onCompleted()
        var events: [Event<Int>] = []
        _ = subject.subscribe { events.append($0) }
        XCTAssertEqual(events, [.error(testError)])
    }

    func testPublishSubjectDisposedRejectsSubscribers() {
        let subject = PublishSubject<Int>()
        var first: [Event<Int>] = []
        _ = subject.subscribe { first.append($0) }
        subject.dispose()
        XCTAssertTrue(subject.isDisposed)
        subject.onNext(1)
        var errors = 0
        _ = subject.subscribe(onError: { error in
            if case RxError.disposed = error { errors += 1 }
        })
        XCTAssertEqual(first, [])
        XCTAssertEqual(errors, 1)
    }

    func testPublishSubjectForgetsHowItEndedOnceDisposed() {
        // As RxSwift: after `dispose()` a late subscriber gets `disposed`, not the old ending.
        for ending in [Event<Int>.error(testError), .completed] {
            let subject = PublishSubject<Int>()
            subject.on(ending)
            var beforeDispose: [Event<Int>] = []
            _ = subject.subscribe { beforeDispose.append($0) }
            subject.dispose()
            var afterDispose: [Event<Int>] = []
            _ = subject.subscribe { afterDispose.append($0) }
            XCTAssertEqual(beforeDispose, [ending])
            XCTAssertEqual(afterDispose.count, 1)
            if case .error(let error)? = afterDispose.first, case RxError.disposed = error {} else {
                XCTFail("expected RxError.disposed, got \(afterDispose)")
            }
            XCTAssertFalse(subject.hasObservers)
            XCTAssertTrue(subject.isDisposed)
        }
    }

    func testStoppedPublishSubjectEndsLateErasedSubscribersAtOnce() {
        // `combineLatest` subscribes through the erased path, which gets no subscription back
        // from a stopped subject: the ending arrives at the subscription time, and the other
        // source is let go then.
        for ending in [Event<Int>.completed, .error(testError)] {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = PublishSubject<Int>()
            subject.on(ending)
            let other = scheduler.createHotObservable([.next(210, 1), .completed(300)])
            let res = scheduler.start { Observable.combineLatest(subject, other) { $0 + $1 } }
            if case .completed = ending {
                // As RxSwift: with one source ended empty, the other's next element ends it.
                XCTAssertEqual(res.events, [.completed(210)])
                XCTAssertEqual(other.subscriptions, [Subscription(200, 210)])
            } else {
                XCTAssertEqual(res.events, [.error(200, testError)])
                XCTAssertEqual(other.subscriptions, [Subscription(200, 200)])
            }
            XCTAssertFalse(subject.hasObservers)
        }
        let disposed = PublishSubject<Int>()
        disposed.dispose()
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.combineLatest(disposed, Observable<Int>.never()) { $0 + $1 } }
        XCTAssertEqual(res.events.count, 1)
        if case .error(let error)? = res.events.first?.value, case RxError.disposed = error {
            XCTAssertEqual(res.events.first?.time, 200)
        } else {
            XCTFail("expected RxError.disposed at 200, got \(res.events)")
        }
    }

    func testPublishSubjectCountsObserversInResources() {
        let before = Resources.total
        let subject = PublishSubject<Int>()
        let subscription1 = subject.subscribe { _ in }
        let subscription2 = subject.subscribe { _ in }
        let during = Resources.total
        subscription1.dispose()
        subscription1.dispose()
        subscription2.dispose()
        XCTAssertGreaterThan(during, before + 2)
        XCTAssertFalse(subject.hasObservers)
    }

    func testPublishSubjectReentrantSendIsDeliveredAndReported() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let anomalies = AnomalyRecorder()
        let previous = Hooks.synchronizationAnomalyHandler
        Hooks.synchronizationAnomalyHandler = { anomalies.record($0) }
        defer { Hooks.synchronizationAnomalyHandler = previous }
        let subscription = subject.subscribe(onNext: { value in
            received.append(value)
            if value == 1 { subject.onNext(2) }
        })
        subject.onNext(1)
        subscription.dispose()
        XCTAssertEqual(received, [1, 2])
        #if DEBUG
        XCTAssertEqual(anomalies.recorded, [.reentrancy])
        #endif
    }

    func testBehaviorSubjectSendsCurrentValueThenUpdates() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = BehaviorSubject(value: 0)
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { subject.onNext(1) }
        scheduler.scheduleAt(200) { _ = subject.subscribe(observer) }
        scheduler.scheduleAt(300) { subject.onNext(2) }
        scheduler.scheduleAt(400) { subject.onCompleted() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(200, 1), .next(300, 2), .completed(400)])
        XCTAssertEqual(try subject.value(), 2)
    }

    func testBehaviorSubjectValueThrowsAfterErrorAndDispose() {
        let failed = BehaviorSubject(value: 1)
        failed.onError(testError)
        XCTAssertThrowsError(try failed.value()) { XCTAssertEqual($0 as? TestError, testError) }
        var events: [Event<Int>] = []
        _ = failed.subscribe { events.append($0) }
        XCTAssertEqual(events, [.error(testError)])

        let disposed = BehaviorSubject(value: 1)
        disposed.dispose()
        XCTAssertThrowsError(try disposed.value())
    }

    func testBehaviorSubjectObserverMayReenterDuringInitialValue() {
        let subject = BehaviorSubject(value: 1)
        var received: [Int] = []
        let subscription = subject.subscribe(onNext: { value in
            received.append(value)
            if value == 1 { subject.onNext(2) }
        })
        XCTAssertEqual(received, [1, 2])
        subscription.dispose()
    }

    func testReplaySubjectBoundedReplaysLastElements() {
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        var events: [Event<Int>] = []
        let subscription = subject.subscribe { events.append($0) }
        subject.onNext(4)
        subject.onCompleted()
        XCTAssertEqual(events, [.next(2), .next(3), .next(4), .completed])
        var late: [Event<Int>] = []
        _ = subject.subscribe { late.append($0) }
        XCTAssertEqual(late, [.next(3), .next(4), .completed])
        subscription.dispose()
    }

    func testReplaySubjectUnboundedReplaysEverythingAndError() {
        let subject = ReplaySubject<Int>.createUnbounded()
        for value in 1...100 { subject.onNext(value) }
        subject.onError(testError)
        var values: [Int] = []
        var error: Error?
        _ = subject.subscribe(onNext: { values.append($0) }, onError: { error = $0 })
        XCTAssertEqual(values, Array(1...100))
        XCTAssertEqual(error as? TestError, testError)
    }

    func testReplaySubjectBoundedKeepsOnlyBufferAfterManyElements() {
        let subject = ReplaySubject<Int>.create(bufferSize: 3)
        for value in 1...1000 { subject.onNext(value) }
        var values: [Int] = []
        let subscription = subject.subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values, [998, 999, 1000])
        subscription.dispose()
    }

    func testReplaySubjectOnTestScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = ReplaySubject<Int>.create(bufferSize: 1)
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { subject.onNext(1) }
        scheduler.scheduleAt(150) { subject.onNext(2) }
        scheduler.scheduleAt(200) { _ = subject.subscribe(observer) }
        scheduler.scheduleAt(300) { subject.onNext(3) }
        scheduler.scheduleAt(400) { subject.onCompleted() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(200, 2), .next(300, 3), .completed(400)])
    }

    func testAsyncSubjectSendsLastElementOnCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = AsyncSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { _ = subject.subscribe(observer) }
        scheduler.scheduleAt(200) { subject.onNext(1) }
        scheduler.scheduleAt(300) { subject.onNext(2) }
        scheduler.scheduleAt(400) { subject.onCompleted() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(400, 2), .completed(400)])

        var late: [Event<Int>] = []
        _ = subject.subscribe { late.append($0) }
        XCTAssertEqual(late, [.next(2), .completed])
    }

    func testAsyncSubjectErrorDropsElement() {
        let subject = AsyncSubject<Int>()
        var events: [Event<Int>] = []
        _ = subject.subscribe { events.append($0) }
        subject.onNext(1)
        subject.onError(testError)
        XCTAssertEqual(events, [.error(testError)])
        var emptyEvents: [Event<Int>] = []
        let empty = AsyncSubject<Int>()
        empty.onCompleted()
        _ = empty.subscribe { emptyEvents.append($0) }
        XCTAssertEqual(emptyEvents, [.completed])
    }

    func testSubjectsReleasedWithUndisposedSubscriptionsReleaseEverything() {
        // A forgotten subscription must not keep its subject alive (the resource check in
        // tearDown proves the observers were released and uncounted too).
        weak var publish: PublishSubject<Int>?
        weak var behavior: BehaviorSubject<Int>?
        weak var replay: ReplaySubject<Int>?
        weak var async: AsyncSubject<Int>?
        do {
            let p = PublishSubject<Int>(), b = BehaviorSubject(value: 0)
            let r = ReplaySubject<Int>.create(bufferSize: 1), a = AsyncSubject<Int>()
            publish = p; behavior = b; replay = r; async = a
            _ = p.subscribe(onNext: { _ in })
            _ = b.subscribe(onNext: { _ in })
            _ = r.subscribe(onNext: { _ in })
            _ = a.subscribe(onNext: { _ in })
            p.onNext(1)
        }
        XCTAssertNil(publish)
        XCTAssertNil(behavior)
        XCTAssertNil(replay)
        XCTAssertNil(async)
    }

    func testSubjectsAsObserversAndObservables() {
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        let subscription = subject.asObservable().subscribe(onNext: { values.append($0) })
        let observer: AnyObserver<Int> = subject.asObserver().asObserver()
        observer.onNext(7)
        XCTAssertEqual(values, [7])
        subscription.dispose()
    }
}

/// Collects synchronization anomalies reported to `Hooks` (from any thread).
final class AnomalyRecorder: @unchecked Sendable { // `lock` guards `anomalies`
    private let lock = NSLock()
    private var anomalies: [SynchronizationAnomaly] = []

    func record(_ anomaly: SynchronizationAnomaly) {
        lock.lock()
        anomalies.append(anomaly)
        lock.unlock()
    }

    var recorded: [SynchronizationAnomaly] {
        lock.lock()
        defer { lock.unlock() }
        return anomalies
    }
}
