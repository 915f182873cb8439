import RxSwift
import RxTest
import XCTest

final class ObservableSwitchIfEmptyTests: RxTestCase {
    func testSwitchIfEmptySwitchesToOtherForEmptySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let other = scheduler.createColdObservable([.next(10, 5), .next(20, 6), .completed(30)])
        let res = scheduler.start { xs.switchIfEmpty(other.asObservable()) }
        XCTAssertEqual(res.events, [.next(260, 5), .next(270, 6), .completed(280)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(other.subscriptions, [Subscription(250, 280)])
    }

    func testSwitchIfEmptyKeepsNonEmptySourceAndNamedForm() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let other = scheduler.createColdObservable([.next(10, 5), .completed(30)])
        let res = scheduler.start { xs.ifEmpty(switchTo: other.asObservable()) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(250)])
        XCTAssertEqual(other.subscriptions, [])
    }

    func testSwitchIfEmptyErrorsOfEitherAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(250, testError)] as [Recorded<Event<Int>>])
        let other = scheduler.createColdObservable([.next(10, 5)])
        let res = scheduler.start { xs.switchIfEmpty(other.asObservable()) }
        XCTAssertEqual(res.events, [.error(250, testError)])
        XCTAssertEqual(other.subscriptions, [])

        let ys = scheduler.createHotObservable([.completed(1250)] as [Recorded<Event<Int>>])
        let failing = scheduler.createColdObservable([.next(10, 5), .error(20, testError1)])
        let otherFails = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { ys.switchIfEmpty(failing.asObservable()) }
        XCTAssertEqual(otherFails.events, [.next(1260, 5), .error(1270, testError1)])

        let zs = scheduler.createHotObservable([.completed(2250)] as [Recorded<Event<Int>>])
        let slow = scheduler.createColdObservable([.next(10, 5), .next(100, 6)])
        let disposed = scheduler.start(created: 2100, subscribed: 2200, disposed: 2300) { zs.switchIfEmpty(slow.asObservable()) }
        XCTAssertEqual(disposed.events, [.next(2260, 5)])
        XCTAssertEqual(slow.subscriptions, [Subscription(2250, 2300)])
    }

    func testSwitchIfEmptyThrowingClosureInOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let res = scheduler.start {
            xs.switchIfEmpty(Observable.just(1).map { _ -> Int in throw testError })
        }
        XCTAssertEqual(res.events, [.error(250, testError)])
    }

    func testSwitchIfEmptyReentrantObserverFeedingOther() {
        let source = PublishSubject<Int>()
        let other = PublishSubject<Int>()
        var values: [Int] = []
        let anomalies = recordingAnomalies {
            let subscription = source.switchIfEmpty(other.asObservable()).subscribe(onNext: { value in
                values.append(value)
                if value == 1 { other.onNext(2) }
            })
            source.onCompleted()
            other.onNext(1)
            subscription.dispose()
        }
        XCTAssertEqual(values, [1, 2])
        XCTAssertEqual(anomalies.contains(.reentrancy), reentrancyIsTracked)
    }
}
