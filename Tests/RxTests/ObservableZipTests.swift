import RxSwift
import RxTest
import XCTest

final class ObservableZipTests: RxTestCase {
    func testZipCombinesElementsByIndex() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(240, 3), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(230, "b"), .next(250, "c"), .completed(260)])
        let res = scheduler.start { Observable.zip(xs, ys) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(220, "2a"), .next(240, "3b"), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 260)])
    }

    func testZipTupleForm() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let ys = scheduler.createHotObservable([.next(215, 10), .next(225, 20), .completed(235)])
        let zs = scheduler.createHotObservable([.next(212, 100), .next(228, 200), .completed(240)])
        let res = scheduler.start { Observable.zip(xs, ys, zs).map { $0 + $1 + $2 } }
        XCTAssertEqual(res.events, [.next(215, 111), .next(228, 222), .completed(240)])
    }

    func testZipOfEightSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (1...8).map { index in
            scheduler.createColdObservable([.next(10 * index, index), .next(100, 10 * index), .completed(110)])
        }
        let res = scheduler.start {
            Observable.zip(sources[0], sources[1], sources[2], sources[3], sources[4], sources[5], sources[6], sources[7]) {
                $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7
            }
        }
        XCTAssertEqual(res.events, [.next(280, 36), .next(300, 360), .completed(310)])
        let tuples = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Observable.zip(sources[0], sources[1], sources[2], sources[3], sources[4], sources[5], sources[6], sources[7]).map { [$0.0, $0.7] }
        }
        XCTAssertEqual(tuples.events, [.next(1280, [1, 8]), .next(1300, [10, 80]), .completed(1310)])
    }

    func testZipCompletesOnlyWhenEverySourceCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let ys = scheduler.createHotObservable([.next(215, 10), .next(230, 20), .completed(400)])
        let res = scheduler.start { Observable.zip(xs, ys, resultSelector: +) }
        XCTAssertEqual(res.events, [.next(215, 11), .completed(400)])
    }

    // RxSwift 6 completes the arity forms only once every source completed, even when a
    // source that already finished leaves another one's element unmatched.
    func testZipOfEmptyAndNonEmptyCompletesWhenBothCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let e = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let o = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
        let res = scheduler.start { Observable.zip(e, o, resultSelector: +) }
        XCTAssertEqual(res.events, [.completed(220)])
        XCTAssertEqual(e.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(o.subscriptions, [Subscription(200, 220)])
        let swapped = scheduler.start(created: 1000, subscribed: 1000, disposed: 2000) { Observable.zip(o, e, resultSelector: +) }
        XCTAssertEqual(swapped.events, [])
        XCTAssertEqual(e.subscriptions, [Subscription(200, 210), Subscription(1000, 2000)])
    }

    func testZipOfNeverAndEmptyNeverCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let n = scheduler.createHotObservable([.next(150, 1)])
        let e = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let res = scheduler.start { Observable.zip(n, e).map { $0 + $1 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(n.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(e.subscriptions, [Subscription(200, 210)])
    }

    func testZipErrorOfAnySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let ys = scheduler.createHotObservable([.next(215, 10), .error(225, testError)])
        let res = scheduler.start { Observable.zip(xs, ys, resultSelector: +) }
        XCTAssertEqual(res.events, [.next(215, 11), .error(225, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 225)])
    }

    func testZipResultSelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let ys = scheduler.createHotObservable([.next(215, 10), .next(230, 20)])
        let res = scheduler.start {
            Observable.zip(xs, ys) { (x: Int, y: Int) throws -> Int in
                if x == 2 { throw testError }
                return x + y
            }
        }
        XCTAssertEqual(res.events, [.next(215, 11), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testZipDisposedMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let ys = scheduler.createHotObservable([.next(215, 10), .next(240, 20)])
        let res = scheduler.start(disposed: 230) { Observable.zip(xs, ys, resultSelector: +) }
        XCTAssertEqual(res.events, [.next(215, 11)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
    }

    func testZipReentrantElementsAreZipped() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = PublishSubject<Int>()
        let ys = PublishSubject<Int>()
        var received: [Recorded<Event<Int>>] = []
        let subscription = Observable.zip(xs, ys, resultSelector: +).subscribe { event in
            received.append(Recorded(time: scheduler.clock, value: event))
            if case .next(11) = event {
                xs.onNext(2)
                ys.onNext(20)
            }
        }
        scheduler.scheduleAt(210) { xs.onNext(1) }
        scheduler.scheduleAt(220) { ys.onNext(10) }
        let anomalies = recordingAnomalies { scheduler.start() }
        XCTAssertEqual(received, [.next(220, 11), .next(220, 22)])
        XCTAssertEqual(Set(anomalies), reentrancyIsTracked ? [.reentrancy] : [])
        subscription.dispose()
    }

    func testZipCollectionCombinesIntoArrays() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 4), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, 2), .next(250, 5), .completed(310)])
        let zs = scheduler.createHotObservable([.next(230, 3), .next(235, 6), .completed(320)])
        let res = scheduler.start { Observable.zip([xs, ys, zs]) }
        XCTAssertEqual(res.events, [.next(230, [1, 2, 3]), .next(250, [4, 5, 6]), .completed(320)])
    }

    func testZipCollectionCompletesWhenElementCanNeverBeMatched() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let ys = scheduler.createHotObservable([.next(215, 10), .next(230, 20), .completed(400)])
        let res = scheduler.start { Observable.zip([xs, ys]) { $0.reduce(0, +) } }
        XCTAssertEqual(res.events, [.next(215, 11), .completed(230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
    }

    // The collection form, unlike the arity forms, completes as soon as an element arrives
    // that no other (all completed) source can match.
    func testZipCollectionOfEmptyAndNonEmptyCompletesAtTheUnmatchableElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let e = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let o = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
        let res = scheduler.start { Observable.zip([e, o]) }
        XCTAssertEqual(res.events, [.completed(215)])
        XCTAssertEqual(e.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(o.subscriptions, [Subscription(200, 215)])
    }

    func testZipCollectionSelectorThrowsAndEmptyCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let ys = scheduler.createHotObservable([.next(215, 10)])
        let res = scheduler.start { Observable.zip([xs, ys]) { (_: [Int]) throws -> Int in throw testError } }
        XCTAssertEqual(res.events, [.error(215, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 215)])

        let empty = scheduler.start(created: 1000, subscribed: 1100, disposed: 2000) { Observable<Int>.zip([Observable<Int>]()) }
        XCTAssertEqual(empty.events, [.completed(1100)])
    }
}
