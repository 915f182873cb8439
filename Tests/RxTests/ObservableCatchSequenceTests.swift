import RxSwift
import RxTest
import XCTest

/// `Observable.catch(sequence:)`: moves to the next source on each error.
final class ObservableCatchSequenceTests: RxTestCase {
    func testMovesOnAtErrorsAndStopsAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError1)])
        let ys = scheduler.createColdObservable([.next(5, 2), .completed(10)])
        let zs = scheduler.createColdObservable([.next(5, 3), .completed(10)])
        let res = scheduler.start { Observable.catch(sequence: [xs.asObservable(), ys.asObservable(), zs.asObservable()]) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(225, 2), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 230)])
        XCTAssertEqual(zs.subscriptions, [])
    }

    func testFailsWithLastErrorWhenAllFail() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError1)])
        let ys = scheduler.createColdObservable([.error(10, testError2)] as [Recorded<Event<Int>>])
        let res = scheduler.start { Observable.catch(sequence: AnySequence([xs.asObservable(), ys.asObservable()])) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(230, testError2)])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 230)])
    }

    func testEmptySequenceCompletesAndDisposalStopsTheCurrentSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.start { Observable<Int>.catch(sequence: [Observable<Int>]()) }
        XCTAssertEqual(empty.events, [.completed(200)])

        let xs = scheduler.createColdObservable([.error(10, testError1)] as [Recorded<Event<Int>>])
        let ys = scheduler.createColdObservable([.next(50, 4)])
        let res = scheduler.start(created: 1100, subscribed: 1200, disposed: 1240) { Observable.catch(sequence: [xs.asObservable(), ys.asObservable()]) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(1210, 1240)])
    }

    func testSynchronousFailuresDoNotGrowTheStack() {
        let sources = [Observable<Int>](repeating: .error(testError), count: 20_000) + [.just(1)]
        var received: [Int] = []
        _ = Observable.catch(sequence: sources).subscribe(onNext: { received.append($0) })
        XCTAssertEqual(received, [1])
    }
}
