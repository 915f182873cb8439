import RxSwift
import RxTest
import XCTest

final class ObservableSkipTests: RxTestCase {
    func testSkipCountDropsFirstElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(300),
        ])
        let res = scheduler.start { xs.skip(2) }
        XCTAssertEqual(res.events, [.next(230, 4), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testSkipCountErrorDisposalAndThrowingUpstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, testError)])
        let res = scheduler.start { xs.skip(5) }
        XCTAssertEqual(res.events, [.error(250, testError)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .next(1220, 2), .next(1260, 3)])
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) { ys.skip(1) }
        XCTAssertEqual(disposed.events, [.next(1220, 2)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])

        let zs = scheduler.createHotObservable([.next(2210, 1), .next(2220, 2)])
        let thrown = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            zs.map { value -> Int in
                if value == 2 { throw testError1 }
                return value
            }.skip(1)
        }
        XCTAssertEqual(thrown.events, [.error(2220, testError1)])
    }

    func testSkipCountReentrantElementCountsAsSkipped() {
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        var sideEffects: [Int] = []
        let subscription = subject
            .do(onNext: { value in
                sideEffects.append(value)
                if value == 1 { subject.onNext(2) }
            })
            .skip(2)
            .subscribe(onNext: { values.append($0) })
        _ = recordingAnomalies {
            subject.onNext(1)
            subject.onNext(3)
        }
        XCTAssertEqual(sideEffects, [1, 2, 3])
        XCTAssertEqual(values, [3])
        subscription.dispose()
    }

    func testSkipForDurationDropsEarlyElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300),
        ])
        let res = scheduler.start { xs.skip(.seconds(25), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(230, 3), .next(240, 4), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .next(1240, 4), .completed(1300)])
        let named = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { ys.skip(for: .seconds(25), scheduler: scheduler) }
        XCTAssertEqual(named.events, [.next(1240, 4), .completed(1300)])
    }

    func testSkipForDurationErrorBeforeDeadlineAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let res = scheduler.start { xs.skip(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])

        let ys = scheduler.createHotObservable([.next(1260, 1), .next(1280, 2)])
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1270) { ys.skip(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(disposed.events, [.next(1260, 1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1270)])
    }

    func testSkipForDurationReentrantObserverFeedingSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        let anomalies = recordingAnomalies {
            scheduler.scheduleAt(100) {
                subscription = subject.skip(.seconds(10), scheduler: scheduler)
                    .do(afterNext: { if $0 == 1 { subject.onNext(2) } })
                    .subscribe(observer)
            }
            scheduler.scheduleAt(105) { subject.onNext(0) }
            scheduler.scheduleAt(120) { subject.onNext(1) }
            scheduler.start()
        }
        XCTAssertEqual(observer.events, [.next(120, 1), .next(120, 2)])
        XCTAssertEqual(anomalies.contains(.reentrancy), reentrancyIsTracked)
        subscription?.dispose()
    }
}
