import RxSwift
import RxTest
import XCTest

final class ObservableAmbTests: RxTestCase {
    func testAmbMirrorsFirstToReact() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(220, 1), .next(240, 2), .completed(300)])
        let ys = scheduler.createHotObservable([.next(210, 10), .next(230, 20), .completed(250)])
        let res = scheduler.start { xs.amb(ys) }
        XCTAssertEqual(res.events, [.next(210, 10), .next(230, 20), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
    }

    func testAmbErrorCanWin() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable([.error(205, testError)])
        let ys = scheduler.createHotObservable([.next(210, 10)])
        let res = scheduler.start { xs.amb(ys) }
        XCTAssertEqual(res.events, [.error(205, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 205)])
    }

    func testStaticAmbOfSeveral() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(230, 1), .completed(240)])
        let ys = scheduler.createHotObservable([.next(220, 2), .completed(250)])
        let zs = scheduler.createHotObservable([.next(225, 3), .completed(260)])
        let res = scheduler.start { Observable.amb([xs.asObservable(), ys.asObservable(), zs.asObservable()]) }
        XCTAssertEqual(res.events, [.next(220, 2), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(zs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
    }

    func testAmbDisposedMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2)])
        let ys = scheduler.createHotObservable([.next(220, 10)])
        let res = scheduler.start(disposed: 230) { xs.amb(ys) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])
    }

    func testAmbReentrantElementOfWinner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = PublishSubject<Int>()
        let ys = PublishSubject<Int>()
        var received: [Recorded<Event<Int>>] = []
        let subscription = xs.amb(ys).subscribe { event in
            received.append(Recorded(time: scheduler.clock, value: event))
            if case .next(1) = event {
                ys.onNext(20)
                xs.onNext(2)
            }
        }
        scheduler.scheduleAt(210) { xs.onNext(1) }
        let anomalies = recordingAnomalies { scheduler.start() }
        XCTAssertEqual(received, [.next(210, 1), .next(210, 2)])
        XCTAssertEqual(Set(anomalies), reentrancyIsTracked ? [.reentrancy] : [])
        XCTAssertFalse(ys.hasObservers)
        subscription.dispose()
    }
}
