import RxSwift
import RxTest
import XCTest

/// `Single.zip`, `Maybe.zip` (2 to 8 sources, with a result selector or as tuples, and over
/// collections) and `Completable.zip`.
final class PrimitiveSequenceZipTests: RxTestCase {
    func testSingleZipOfTwoWaitsForBothAndDisposesThem() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(30, 1), .completed(30)])
        let ys = scheduler.createColdObservable([.next(10, "a"), .completed(10)])
        let res = scheduler.start {
            Single.zip(xs.asSingle(), ys.asSingle()).map { "\($0)\($1)" }.asObservable()
        }
        XCTAssertEqual(res.events, [.next(230, "1a"), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])
    }

    func testSingleZipResultSelectorAndItsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(20, 2), .completed(20)])
        let ys = scheduler.createColdObservable([.next(40, 3), .completed(40)])
        let res = scheduler.start { Single.zip(xs.asSingle(), ys.asSingle(), resultSelector: *).asObservable() }
        XCTAssertEqual(res.events, [.next(240, 6), .completed(240)])

        let thrown = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Single.zip(xs.asSingle(), ys.asSingle()) { _, _ -> Int in throw testError }.asObservable()
        }
        XCTAssertEqual(thrown.events, [.error(1240, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(1200, 1220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240), Subscription(1200, 1240)])
    }

    func testSingleZipFailsWithFirstErrorAndCancelsTheOthers() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        let ys = scheduler.createColdObservable([.error(15, testError)] as [Recorded<Event<Int>>])
        let zs = scheduler.createColdObservable([.next(5, 3), .completed(5)])
        let res = scheduler.start { Single.zip(xs.asSingle(), ys.asSingle(), zs.asSingle()) { $0 + $1 + $2 }.asObservable() }
        XCTAssertEqual(res.events, [.error(215, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 215)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 215)])
        XCTAssertEqual(zs.subscriptions, [Subscription(200, 205)])
    }

    func testSingleZipOfEightAsTupleAndWithSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let s = (1...8).map { index in
            scheduler.createColdObservable([.next(TestTime(5 * index), index), .completed(TestTime(5 * index))]).asSingle()
        }
        let tuple = scheduler.start {
            Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map { [$0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7] }.asObservable()
        }
        XCTAssertEqual(tuple.events, [.next(240, [1, 2, 3, 4, 5, 6, 7, 8]), .completed(240)])
        let summed = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }.asObservable()
        }
        XCTAssertEqual(summed.events, [.next(1240, 36), .completed(1240)])
    }

    func testSingleZipArities3To7() {
        let scheduler = TestScheduler(initialClock: 0)
        let one = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        func s() -> Single<Int> { one.asSingle() }
        let three: Single<Int> = Single.zip(s(), s(), s()).map { $0 + $1 + $2 }
        let four: Single<Int> = Single.zip(s(), s(), s(), s()).map { $0 + $1 + $2 + $3 }
        let five: Single<Int> = Single.zip(s(), s(), s(), s(), s()) { $0 + $1 + $2 + $3 + $4 }
        let six: Single<Int> = Single.zip(s(), s(), s(), s(), s(), s()).map { $0 + $1 + $2 + $3 + $4 + $5 }
        let seven: Single<Int> = Single.zip(s(), s(), s(), s(), s(), s(), s()) { $0 + $1 + $2 + $3 + $4 + $5 + $6 }
        let res = scheduler.start { Observable.merge([three, four, five, six, seven].map { $0.asObservable() }) }
        XCTAssertEqual(res.events, [.next(210, 3), .next(210, 4), .next(210, 5), .next(210, 6), .next(210, 7), .completed(210)])
        XCTAssertEqual(one.subscriptions.count, 25)
    }

    func testMaybeZipSendsTupleOrCompletesEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.next(20, 2), .completed(20)])
        let empty = scheduler.createColdObservable([.completed(15)] as [Recorded<Event<Int>>])
        let both = scheduler.start { Maybe.zip(xs.asMaybe(), ys.asMaybe()).map { $0 * 10 + $1 }.asObservable() }
        XCTAssertEqual(both.events, [.next(220, 12), .completed(220)])

        let none = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Maybe.zip(xs.asMaybe(), empty.asMaybe(), ys.asMaybe()) { $0 + $1 + $2 }.asObservable()
        }
        XCTAssertEqual(none.events, [.completed(1220)])
        XCTAssertEqual(empty.subscriptions, [Subscription(1200, 1215)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220), Subscription(1200, 1220)])
    }

    func testMaybeZipOfEight() {
        let scheduler = TestScheduler(initialClock: 0)
        let one = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        func m() -> Maybe<Int> { one.asMaybe() }
        let res = scheduler.start {
            Maybe.zip(m(), m(), m(), m(), m(), m(), m(), m()) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }.asObservable()
        }
        XCTAssertEqual(res.events, [.next(210, 8), .completed(210)])
        XCTAssertEqual(one.subscriptions, Array(repeating: Subscription(200, 210), count: 8))
    }

    func testMaybeZipArities4To7AndTuples() {
        let scheduler = TestScheduler(initialClock: 0)
        let one = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        func m() -> Maybe<Int> { one.asMaybe() }
        let four: Maybe<Int> = Maybe.zip(m(), m(), m(), m()).map { $0 + $1 + $2 + $3 }
        let five: Maybe<Int> = Maybe.zip(m(), m(), m(), m(), m()) { $0 + $1 + $2 + $3 + $4 }
        let six: Maybe<Int> = Maybe.zip(m(), m(), m(), m(), m(), m()).map { $0 + $1 + $2 + $3 + $4 + $5 }
        let seven: Maybe<Int> = Maybe.zip(m(), m(), m(), m(), m(), m(), m()) { $0 + $1 + $2 + $3 + $4 + $5 + $6 }
        let twoTuple: Maybe<Int> = Maybe.zip(m(), m()).map { $0 * 10 + $1 }
        let res = scheduler.start { Observable.merge([four, five, six, seven, twoTuple].map { $0.asObservable() }) }
        XCTAssertEqual(res.events, [.next(210, 4), .next(210, 5), .next(210, 6), .next(210, 7), .next(210, 11), .completed(210)])
        XCTAssertEqual(one.subscriptions.count, 24)
    }

    func testSingleZipOfCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let singles = [30, 10, 20].map { time in
            scheduler.createColdObservable([.next(TestTime(time), time), .completed(TestTime(time))]).asSingle()
        }
        let res = scheduler.start { Single.zip(singles).asObservable() }
        XCTAssertEqual(res.events, [.next(230, [30, 10, 20]), .completed(230)])

        let summed = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Single.zip(singles) { $0.reduce(0, +) }.asObservable()
        }
        XCTAssertEqual(summed.events, [.next(1230, 60), .completed(1230)])

        let empty = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            Single<Int>.zip([Single<Int>]()).asObservable()
        }
        XCTAssertEqual(empty.events, [.next(2200, []), .completed(2200)])

        let emptySelected = scheduler.start(created: 3100, subscribed: 3200, disposed: 4000) {
            Single<Int>.zip([Single<Int>]()) { $0.count + 5 }.asObservable()
        }
        XCTAssertEqual(emptySelected.events, [.next(3200, 5), .completed(3200)])
    }

    func testCompletableZipSubscribesToAllAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.completed(30)] as [Recorded<Event<Never>>])
        let ys = scheduler.createColdObservable([.completed(10)] as [Recorded<Event<Never>>])
        let failing = scheduler.createColdObservable([.error(20, testError)] as [Recorded<Event<Never>>])
        let res = scheduler.start { Completable.zip(xs.asCompletable(), ys.asCompletable()).asObservable() }
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])

        let failed = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Completable.zip([xs.asCompletable(), failing.asCompletable()]).asObservable()
        }
        XCTAssertEqual(failed.events, [.error(1220, testError)])
        XCTAssertEqual(xs.subscriptions.last, Subscription(1200, 1220))

        let fromSet = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            Completable.zip([xs.asCompletable(), ys.asCompletable()].lazy.map { $0 }).asObservable()
        }
        XCTAssertEqual(fromSet.events, [.completed(2230)])
    }
}
