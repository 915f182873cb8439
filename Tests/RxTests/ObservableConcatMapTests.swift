import RxSwift
import RxTest
import XCTest

final class ObservableConcatMapTests: RxTestCase {
    func testConcatMapRunsInnerSequencesInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start {
            xs.concatMap { value in
                scheduler.createColdObservable([.next(10, value * 10), .next(20, value * 100), .completed(30)])
            }
        }
        XCTAssertEqual(res.events, [.next(220, 10), .next(230, 100), .next(250, 20), .next(260, 200), .completed(270)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testConcatMapSelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let res = scheduler.start {
            xs.concatMap { value -> Observable<Int> in
                if value == 2 { throw testError }
                return Observable.just(value)
            }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testConcatMapInnerErrorAndDisposalMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createColdObservable([.next(5, 1), .error(10, testError)])
        let waiting = scheduler.createColdObservable([.next(5, 2), .completed(10)])
        let xs = scheduler.createHotObservable([.next(210, 0), .next(212, 1)])
        let res = scheduler.start { xs.concatMap { $0 == 0 ? failing : waiting } }
        XCTAssertEqual(res.events, [.next(215, 1), .error(220, testError)])
        XCTAssertEqual(waiting.subscriptions, [])

        let slow = scheduler.createColdObservable([.next(10, 1), .next(100, 2), .completed(110)])
        let ys = scheduler.createHotObservable([.next(1210, 0), .next(1215, 1)])
        let res2 = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) { ys.concatMap { _ in slow } }
        XCTAssertEqual(res2.events, [.next(1220, 1)])
        XCTAssertEqual(slow.subscriptions, [Subscription(1210, 1250)])
    }

    func testConcatMapReentrantElementIsQueued() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [Recorded<Event<Int>>] = []
        let subscription = subject.concatMap { Observable.of($0, $0 * 10) }.subscribe { event in
            received.append(Recorded(time: scheduler.clock, value: event))
            if case .next(1) = event {
                subject.onNext(2)
            }
        }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        let anomalies = recordingAnomalies { scheduler.start() }
        XCTAssertEqual(received, [.next(210, 1), .next(210, 10), .next(210, 2), .next(210, 20)])
        XCTAssertEqual(Set(anomalies), reentrancyIsTracked ? [.reentrancy] : [])
        subscription.dispose()
    }
}
