import RxSwift
import RxTest
import XCTest

final class ObservableRetryTests: RxTestCase {
    func testRetryResubscribesAfterEachError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let res = scheduler.start(disposed: 265) { xs.retry() }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 1), .next(250, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260), Subscription(260, 265)])
    }

    func testRetryStopsAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { xs.retry() }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testRetryCountSendsLastErrorAfterMaxAttempts() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .error(10, testError)])
        let res = scheduler.start { xs.retry(3) }
        XCTAssertEqual(res.events, [.next(205, 1), .next(215, 1), .next(225, 1), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(210, 220), Subscription(220, 230)])

        let once = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { xs.retry(1) }
        XCTAssertEqual(once.events, [.next(1205, 1), .error(1210, testError)])

        let none = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) { xs.retry(0) }
        XCTAssertEqual(none.events, [.completed(2200)])
    }

    func testRetryRecoversWhenALaterAttemptSucceedsAndThrowingClosureIsRetried() {
        var attempts = 0
        var values: [Int] = []
        var completed = false
        let source = Observable<Int>.deferred {
            attempts += 1
            return Observable.of(attempts).map { value in
                if value < 3 { throw testError }
                return value
            }
        }
        let subscription = source.retry(5).subscribe(onNext: { values.append($0) }, onCompleted: { completed = true })
        XCTAssertEqual(attempts, 3)
        XCTAssertEqual(values, [3])
        XCTAssertTrue(completed)
        subscription.dispose()
    }

    func testRetrySynchronousFailuresDoNotGrowTheStack() {
        // 100 000 synchronous failures: run by a loop, not by recursion.
        var failures = 0
        let failing = Observable<Int>.create { observer in
            failures += 1
            observer.onError(testError)
            return Disposables.create()
        }
        var error: Error?
        let subscription = failing.retry(100_000).subscribe(onError: { error = $0 })
        XCTAssertEqual(failures, 100_000)
        XCTAssertEqual(error as? TestError, testError)
        subscription.dispose()
    }

    func testRetryObserverDisposingFromInsideStopsRetrying() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        var times: [TestTime] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.retry().subscribe(onNext: { _ in
                times.append(scheduler.clock)
                if times.count == 3 { subscription?.dispose() }
            })
        }
        scheduler.start()
        XCTAssertEqual(times, [210, 230, 250])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240), Subscription(240, 250)])
    }

    func testRetryObserverFailingSourceReentrantlyResubscribes() {
        var subjects: [PublishSubject<Int>] = []
        let source = Observable<Int>.deferred {
            let subject = PublishSubject<Int>()
            subjects.append(subject)
            return subject.asObservable()
        }
        var values: [Int] = []
        let subscription = source.retry().subscribe(onNext: { value in
            values.append(value)
            if value == 1 { subjects.last?.onError(testError) }
        })
        let anomalies = recordingAnomalies {
            subjects[0].onNext(1)
        }
        XCTAssertEqual(subjects.count, 2)
        subjects[1].onNext(2)
        XCTAssertEqual(values, [1, 2])
        XCTAssertFalse(subjects[0].hasObservers)
        XCTAssertEqual(anomalies.contains(.reentrancy), reentrancyIsTracked)
        subscription.dispose()
        XCTAssertFalse(subjects[1].hasObservers)
    }
}
