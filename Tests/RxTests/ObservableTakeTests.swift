import RxSwift
import RxBlocking
import RxTest
import XCTest

final class ObservableTakeTests: RxTestCase {
    func testTakeCountCompletesAfterCountElementsAndDisposesSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(300),
        ])
        let res = scheduler.start { xs.take(2) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testTakeZeroIsEmptyAndTakeMoreThanAvailablePassesCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let zero = scheduler.start { xs.take(0) }
        XCTAssertEqual(zero.events, [.completed(200)])
        XCTAssertEqual(xs.subscriptions, [])

        let ys = scheduler.createHotObservable([.next(1210, 1), .completed(1250)])
        let many = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { ys.take(5) }
        XCTAssertEqual(many.events, [.next(1210, 1), .completed(1250)])
    }

    func testTakeErrorDisposalAndThrowingUpstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, testError)])
        let res = scheduler.start { xs.take(3) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(250, testError)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .next(1260, 2)])
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) { ys.take(3) }
        XCTAssertEqual(disposed.events, [.next(1210, 1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])

        let zs = scheduler.createHotObservable([.next(2210, 1), .next(2220, 2)])
        let thrown = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            zs.map { value -> Int in
                if value == 2 { throw testError1 }
                return value
            }.take(3)
        }
        XCTAssertEqual(thrown.events, [.next(2210, 1), .error(2220, testError1)])
    }

    func testTakeReentrantObserverFeedingSourceCountsReentrantElements() {
        let subject = PublishSubject<Int>()
        var events: [Event<Int>] = []
        let anomalies = recordingAnomalies {
            let subscription = subject.take(2).subscribe { event in
                events.append(event)
                if case .next(1) = event {
                    subject.onNext(2)
                    subject.onNext(3)
                }
            }
            subject.onNext(1)
            subscription.dispose()
        }
        XCTAssertEqual(events, [.next(1), .next(2), .completed])
        XCTAssertEqual(anomalies.contains(.reentrancy), reentrancyIsTracked)
    }

    func testTakeForDurationCompletesAtDeadline() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300),
        ])
        let res = scheduler.start { xs.take(for: .seconds(25), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(225)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }

    func testTakeForDurationSourceEndsFirstAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let res = scheduler.start { xs.take(for: .seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .next(1230, 2)])
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1220) { ys.take(for: .seconds(50), scheduler: scheduler) }
        XCTAssertEqual(disposed.events, [.next(1210, 1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1220)])
    }

    func testTakeForDurationReentrantObserver() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        let anomalies = recordingAnomalies {
            scheduler.scheduleAt(100) {
                subscription = subject.take(for: .seconds(50), scheduler: scheduler)
                    .do(afterNext: { if $0 == 1 { subject.onNext(2) } })
                    .subscribe(observer)
            }
            scheduler.scheduleAt(120) { subject.onNext(1) }
            scheduler.scheduleAt(160) { subject.onNext(3) }
            scheduler.start()
        }
        XCTAssertEqual(observer.events, [.next(120, 1), .next(120, 2), .completed(150)])
        XCTAssertEqual(anomalies.contains(.reentrancy), reentrancyIsTracked)
        subscription?.dispose()
    }

    func testTakeForDurationWithSourceAndTimerOnDifferentQueues() throws {
        let source = SerialDispatchQueueScheduler(internalSerialQueueName: "take-source")
        let timer = ConcurrentDispatchQueueScheduler(qos: .default)
        var values: [Int] = []
        let anomalies = recordingAnomalies {
            values = (try? Observable<Int>.interval(.milliseconds(2), scheduler: source)
                .take(for: .milliseconds(40), scheduler: timer)
                .toBlocking(timeout: 5)
                .toArray()) ?? [-1]
        }
        XCTAssertFalse(values.isEmpty)
        XCTAssertEqual(values, Array(0..<values.count))
        XCTAssertFalse(anomalies.contains(.concurrentAccess))
    }
}
