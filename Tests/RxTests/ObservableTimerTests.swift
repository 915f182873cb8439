import RxSwift
import RxBlocking
import RxTest
import XCTest

final class ObservableTimerTests: RxTestCase {
    func testTimerOneShotSendsZeroThenCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.timer(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(250, 0), .completed(250)])
    }

    func testTimerOneShotDisposedBeforeDueSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 240) { Observable<Int>.timer(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
    }

    func testTimerPeriodicCountsAfterDueTimeEveryPeriod() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 300) { Observable<Int>.timer(.seconds(30), period: .seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(230, 0), .next(250, 1), .next(270, 2), .next(290, 3)])
    }

    func testIntervalSendsEveryPeriodUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 350) { Observable<Int64>.interval(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(300, 0)])
        let longer = scheduler.start(created: 400, subscribed: 500, disposed: 750) { Observable<Int>.interval(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(longer.events, [.next(600, 0), .next(700, 1)])
    }

    func testIntervalObserverDisposingFromInsideStopsTicks() {
        let scheduler = TestScheduler(initialClock: 0)
        var values: [Int] = []
        var subscription: Disposable?
        scheduler.scheduleAt(0) {
            subscription = Observable<Int>.interval(.seconds(10), scheduler: scheduler).subscribe(onNext: { value in
                values.append(value)
                if value == 2 { subscription?.dispose() }
            })
        }
        scheduler.advanceTo(100)
        XCTAssertEqual(values, [0, 1, 2])
    }

    func testTimerOnDispatchQueueFires() throws {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "timer-test")
        let values = try Observable<Int>.timer(.milliseconds(10), scheduler: scheduler).toBlocking(timeout: 5).toArray()
        XCTAssertEqual(values, [0])
        let ticks = try Observable<Int>.interval(.milliseconds(5), scheduler: scheduler).take(3).toBlocking(timeout: 5).toArray()
        XCTAssertEqual(ticks, [0, 1, 2])
    }
}
