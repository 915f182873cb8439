import RxSwift
import RxTest
import XCTest

final class ObservableCreationTests: RxTestCase {
    func testCreateDeliversEventsAndStopsAfterCompletion() {
        var disposed = false
        let observable = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            observer.onCompleted()
            observer.onNext(3)
            observer.onError(testError)
            return Disposables.create { disposed = true }
        }
        var events: [Event<Int>] = []
        _ = observable.subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(1), .next(2), .completed])
        XCTAssertTrue(disposed, "terminal event must dispose the create subscription")
    }

    func testCreateOnTestSchedulerKeepsTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable<Int>.create { observer in
                scheduler.scheduleAt(300) { observer.onNext(1) }
                scheduler.scheduleAt(400) { observer.onError(testError) }
                scheduler.scheduleAt(500) { observer.onNext(2) }
                return Disposables.create()
            }
        }
        XCTAssertEqual(res.events, [.next(300, 1), .error(400, testError)])
    }

    func testCreateDisposeRunsTheReturnedDisposableAndDropsLaterEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        var disposedAt: Int?
        let res = scheduler.start(disposed: 350) {
            Observable<Int>.create { observer in
                scheduler.scheduleAt(300) { observer.onNext(1) }
                scheduler.scheduleAt(400) { observer.onNext(2) }
                return Disposables.create { disposedAt = scheduler.clock }
            }
        }
        XCTAssertEqual(res.events, [.next(300, 1)])
        XCTAssertEqual(disposedAt, 350)
    }

    func testSubscribeClosuresReceiveEventsAndOnDisposedRunsOnce() {
        var nexts: [Int] = []
        var completed = 0
        var disposed = 0
        let subscription = Observable.of(1, 2, 3).subscribe(
            onNext: { nexts.append($0) },
            onError: { _ in XCTFail("no error expected") },
            onCompleted: { completed += 1 },
            onDisposed: { disposed += 1 }
        )
        subscription.dispose()
        XCTAssertEqual(nexts, [1, 2, 3])
        XCTAssertEqual(completed, 1)
        XCTAssertEqual(disposed, 1)
    }

    func testSubscribeOnErrorReceivesErrorAndOnDisposedRuns() {
        var received: Error?
        var disposed = false
        _ = Observable<Int>.error(testError).subscribe(onError: { received = $0 }, onDisposed: { disposed = true })
        XCTAssertEqual(received as? TestError, testError)
        XCTAssertTrue(disposed)
    }

    func testSubscribeWithObjectPassesObjectWhileAlive() {
        final class Owner { var values: [Int] = [] }
        let owner = Owner()
        let subject = PublishSubject<Int>()
        let subscription = subject.subscribe(with: owner, onNext: { owner, value in owner.values.append(value) })
        subject.onNext(4)
        subject.onNext(5)
        subscription.dispose()
        subject.onNext(6)
        XCTAssertEqual(owner.values, [4, 5])
    }

    func testJustSendsElementThenCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.just(42) }
        XCTAssertEqual(res.events, [.next(200, 42), .completed(200)])
    }

    func testJustOnSchedulerSendsLater() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.just(42, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 42), .completed(202)])
    }

    func testOfSendsAllElementsThenCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2, 3) }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .next(200, 3), .completed(200)])
    }

    func testOfOnTestSchedulerSpacesElementsOneTickApart() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1), .next(202, 2), .completed(203)])
    }

    func testOfOnSchedulerDisposedMidwayStops() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 202) { Observable.of(1, 2, 3, 4, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1)])
    }

    func testFromArraySequenceAndOptional() throws {
        var events: [Event<Int>] = []
        _ = Observable.from([1, 2]).subscribe { events.append($0) }
        _ = Observable.from(3...4).subscribe { events.append($0) }
        _ = Observable.from(optional: 5).subscribe { events.append($0) }
        _ = Observable<Int>.from(optional: nil).subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(1), .next(2), .completed, .next(3), .next(4), .completed, .next(5), .completed, .completed])
    }

    func testFromOnTrampolineDoesNotNestRecursion() {
        // A long sequence on the current-thread trampoline must not grow the stack.
        var count = 0
        _ = Observable.from(Array(0..<100_000)).subscribe(onNext: { _ in count += 1 })
        XCTAssertEqual(count, 100_000)
    }

    func testEmptyCompletesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.empty() }
        XCTAssertEqual(res.events, [.completed(200)])
    }

    func testNeverSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.never() }
        XCTAssertEqual(res.events, [])
    }

    func testErrorFailsAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.error(testError) }
        XCTAssertEqual(res.events, [.error(200, testError)])
    }

    func testDeferredCallsFactoryPerSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        var invoked = 0
        let xs = scheduler.createColdObservable([.next(100, 1), .completed(200)])
        let res = scheduler.start {
            Observable<Int>.deferred {
                invoked += 1
                return xs.asObservable()
            }
        }
        XCTAssertEqual(invoked, 1)
        XCTAssertEqual(res.events, [.next(300, 1), .completed(400)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
    }

    func testDeferredFactoryErrorBecomesSequenceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable<Int>.deferred { throw testError }
        }
        XCTAssertEqual(res.events, [.error(200, testError)])
    }

    func testDeferredDisposeReachesInnerSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(300, 1), .next(500, 2)])
        let res = scheduler.start(disposed: 400) { Observable<Int>.deferred { xs.asObservable() } }
        XCTAssertEqual(res.events, [.next(300, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
    }
}
