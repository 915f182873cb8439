import RxSwift
import RxCocoa
import RxTest
import XCTest

/// The SharedSequence operators not covered by the Driver and Signal tests, on virtual time.
/// Every input takes one tick to reach the shared sequence (it moves onto the scheduler).
final class SharedSequenceOperatorTests: RxCocoaTestCase {
    func testCompactMapSkipAndDo() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "1"), .next(220, "x"), .next(230, "3"), .next(240, "4"), .completed(250)])
        var log: [String] = []
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start {
                xs.asDriver(onErrorJustReturn: "")
                    .compactMap { Int($0) }
                    .skip(1)
                    .do(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") }, onSubscribe: { log.append("subscribe") }, onDispose: { log.append("dispose") })
                    .asObservable()
            }
            XCTAssertEqual(res.events, [.next(231, 3), .next(241, 4), .completed(251)])
        }
        XCTAssertEqual(log, ["subscribe", "next 3", "next 4", "completed", "dispose"])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testFlatMapFirstIgnoresElementsWhileAnInnerRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        let taps = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(240, 3)])
        let work = scheduler.createColdObservable([.next(10, "done"), .completed(10)])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start {
                taps.asSignal(onErrorJustReturn: 0)
                    .flatMapFirst { _ in work.asSignal(onErrorJustReturn: "") }
                    .asObservable()
            }
            XCTAssertEqual(res.events, [.next(222, "done"), .next(252, "done")])
        }
        XCTAssertEqual(work.subscriptions, [Subscription(211, 221), Subscription(241, 251)])
    }

    func testSwitchLatestMergeAndFlatMap() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(215, "a1"), .next(235, "a2")])
        let b = scheduler.createHotObservable([.next(225, "b1"), .next(245, "b2")])
        let outer = scheduler.createHotObservable([.next(210, 0), .next(230, 1)])
        SharingScheduler.mock(scheduler: scheduler) {
            let sources = [a.asDriver(onErrorJustReturn: ""), b.asDriver(onErrorJustReturn: "")]
            let latest = scheduler.start {
                outer.asDriver(onErrorJustReturn: 0).map { sources[$0] }.switchLatest().asObservable()
            }
            XCTAssertEqual(latest.events, [.next(216, "a1"), .next(246, "b2")])
        }
        let other = TestScheduler(initialClock: 0)
        let c = other.createHotObservable([.next(215, "c1"), .next(235, "c2")])
        let d = other.createHotObservable([.next(225, "d1")])
        SharingScheduler.mock(scheduler: other) {
            let sources = [c.asSignal(onErrorJustReturn: ""), d.asSignal(onErrorJustReturn: "")]
            let merged = other.start { Signal.of(0, 1).map { sources[$0] }.merge().asObservable() }
            XCTAssertEqual(merged.events, [.next(216, "c1"), .next(226, "d1"), .next(236, "c2")])
        }
        let third = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: third) {
            let flat = third.start { Driver.of(1, 2).flatMap { Driver.of($0, $0 * 10) }.asObservable() }
            XCTAssertEqual(flat.events.map(\.value.element), [1, 10, 2, 20, nil])
        }
    }

    func testConcatAndCollectionsAndDelay() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start { Driver.concat([Driver.just(1), Driver.just(2)]).delay(.seconds(5)).asObservable() }
            XCTAssertEqual(res.events, [.next(206, 1), .next(207, 2), .completed(208)])
        }
        let other = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: other) {
            let res = other.start {
                Driver.combineLatest([Driver.just(1), Driver.just(2)]) { $0.reduce(0, +) }.asObservable()
            }
            XCTAssertEqual(res.events, [.next(201, 3), .completed(201)], "Driver.just sends when subscribed, which subscribe(on:) moves one tick")
        }
        let third = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: third) {
            let res = third.start { Driver.zip([Driver.of(1, 2), Driver.of(3, 4)]).asObservable() }
            XCTAssertEqual(res.events, [.next(201, [1, 3]), .next(202, [2, 4]), .completed(203)])
        }
    }

    func testDeferredFromOptionalAndTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        var made = 0
        SharingScheduler.mock(scheduler: scheduler) {
            let deferred = Driver<Int>.deferred {
                made += 1
                return Driver.from(optional: made)
            }
            let res = scheduler.start { deferred.asObservable() }
            XCTAssertEqual(res.events, [.next(201, 1), .completed(202)])
            XCTAssertEqual(scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) { Driver<Int>.from(optional: nil).asObservable() }.events, [.completed(1201)])
        }
        XCTAssertEqual(made, 1)
        let other = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: other) {
            let res = other.start(disposed: 290) { Driver<Int>.timer(.seconds(50), period: .seconds(20)).asObservable() }
            XCTAssertEqual(res.events, [.next(250, 0), .next(270, 1)])
        }
    }
}
