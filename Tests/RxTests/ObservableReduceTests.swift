import RxSwift
import RxTest
import XCTest

final class ObservableReduceTests: RxTestCase {
    func testReduceSendsFinalValueAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(300),
        ])
        let res = scheduler.start { xs.reduce(10, accumulator: +) }
        XCTAssertEqual(res.events, [.next(300, 19), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testReduceOfEmptySendsSeedAndMapResultTransforms() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let res = scheduler.start { empty.reduce(7, accumulator: +) }
        XCTAssertEqual(res.events, [.next(250, 7), .completed(250)])

        let xs = scheduler.createHotObservable([.next(1210, 2), .next(1220, 3), .completed(1230)])
        let mapped = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            xs.reduce(1, accumulator: *, mapResult: { "product \($0)" })
        }
        XCTAssertEqual(mapped.events, [.next(1230, "product 6"), .completed(1230)])
    }

    func testReduceErrorsAndThrowingClosures() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, testError)])
        let res = scheduler.start { xs.reduce(0, accumulator: +) }
        XCTAssertEqual(res.events, [.error(250, testError)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .next(1220, 2), .completed(1300)])
        let accumulatorThrows = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            ys.reduce(0) { sum, value in
                if value == 2 { throw testError1 }
                return sum + value
            }
        }
        XCTAssertEqual(accumulatorThrows.events, [.error(1220, testError1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1220)])

        let zs = scheduler.createHotObservable([.next(2210, 1), .completed(2300)])
        let mapResultThrows = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            zs.reduce(0, accumulator: +, mapResult: { _ -> Int in throw testError2 })
        }
        XCTAssertEqual(mapResultThrows.events, [.error(2300, testError2)])
    }

    func testReduceDisposedBeforeCompletionSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.reduce(0, accumulator: +) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testReduceReentrantObserverFeedingSourceAfterResult() {
        // The observer feeds the source while handling the result: the sink is done and
        // the reentrant element goes nowhere.
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        let subscription = subject.reduce(0, accumulator: +).subscribe(onNext: { value in
            values.append(value)
            subject.onNext(100)
        })
        subject.onNext(1)
        subject.onNext(2)
        subject.onCompleted()
        XCTAssertEqual(values, [3])
        subscription.dispose()
    }
}
