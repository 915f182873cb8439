import RxSwift
import RxTest
import XCTest

final class ObservableFlatMapFirstTests: RxTestCase {
    func testFlatMapFirstDropsElementsWhileInnerRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(250, 3), .completed(260)])
        var selected: [Int] = []
        let res = scheduler.start {
            xs.flatMapFirst { value -> Observable<Int> in
                selected.append(value)
                return scheduler.createColdObservable([.next(5, value * 10), .next(20, value * 100), .completed(30)]).asObservable()
            }
        }
        XCTAssertEqual(res.events, [.next(215, 10), .next(230, 100), .next(255, 30), .next(270, 300), .completed(280)])
        XCTAssertEqual(selected, [1, 3])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testFlatMapFirstSelectorThrowsAndInnerError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2)])
        let res = scheduler.start {
            xs.flatMapFirst { value -> Observable<Int> in
                if value == 2 { throw testError }
                return Observable.just(value)
            }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .error(250, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])

        let inner = scheduler.createColdObservable([.next(10, 5), .error(20, testError1)])
        let ys = scheduler.createHotObservable([.next(1210, 1)])
        let res2 = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { ys.flatMapFirst { _ in inner } }
        XCTAssertEqual(res2.events, [.next(1220, 5), .error(1230, testError1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1230)])
    }

    func testFlatMapFirstDisposedMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .next(100, 2)])
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let res = scheduler.start(disposed: 250) { xs.flatMapFirst { _ in inner } }
        XCTAssertEqual(res.events, [.next(220, 1)])
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testFlatMapFirstReentrantElementIsDroppedWhileInnerRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let inner = PublishSubject<Int>()
        var received: [Recorded<Event<Int>>] = []
        let subscription = subject.flatMapFirst { _ in inner }.subscribe { event in
            received.append(Recorded(time: scheduler.clock, value: event))
            if case .next(10) = event {
                subject.onNext(2)
                inner.onNext(20)
            }
        }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(220) { inner.onNext(10) }
        let anomalies = recordingAnomalies { scheduler.start() }
        XCTAssertEqual(received, [.next(220, 10), .next(220, 20)])
        XCTAssertEqual(Set(anomalies), reentrancyIsTracked ? [.reentrancy] : [])
        subscription.dispose()
    }
}
