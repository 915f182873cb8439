import RxSwift
import RxTest
import XCTest

final class ObservableFlatMapTests: RxTestCase {
    func testFlatMapMergesInnerSequences() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner1 = scheduler.createColdObservable([.next(10, 11), .next(30, 12), .completed(40)])
        let inner2 = scheduler.createColdObservable([.next(5, 21), .next(15, 22), .completed(50)])
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .completed(230),
        ])
        let res = scheduler.start { xs.flatMap { $0 == 1 ? inner1 : inner2 } }
        XCTAssertEqual(res.events, [
            .next(220, 11),
            .next(225, 21),
            .next(235, 22),
            .next(240, 12),
            .completed(270),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(inner1.subscriptions, [Subscription(210, 250)])
        XCTAssertEqual(inner2.subscriptions, [Subscription(220, 270)])
    }

    func testFlatMapInnerErrorEndsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner1 = scheduler.createColdObservable([.next(10, 11), .next(100, 12)])
        let inner2 = scheduler.createColdObservable([Recorded<Event<Int>>.error(15, testError)])
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(300, 3)])
        let res = scheduler.start { xs.flatMap { $0 == 1 ? inner1 : inner2 } }
        XCTAssertEqual(res.events, [.next(220, 11), .error(235, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
        XCTAssertEqual(inner1.subscriptions, [Subscription(210, 235)])
        XCTAssertEqual(inner2.subscriptions, [Subscription(220, 235)])
    }

    func testFlatMapSelectorErrorAndSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let res = scheduler.start {
            xs.flatMap { value -> Observable<Int> in
                if value == 2 { throw testError }
                return Observable.just(value)
            }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])

        let ys = scheduler.createHotObservable([.next(1010, 1), .error(1020, testError1)])
        let res2 = scheduler.start(created: 1000, subscribed: 1000, disposed: 2000) { ys.flatMap { Observable.just($0 * 2) } }
        XCTAssertEqual(res2.events, [.next(1010, 2), .error(1020, testError1)])
    }

    func testFlatMapDisposedMidStreamDisposesInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .next(100, 2)])
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let res = scheduler.start(disposed: 250) { xs.flatMap { _ in inner } }
        XCTAssertEqual(res.events, [.next(220, 1)])
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 250)])
    }

    func testFlatMapWithSynchronousInnerSequences() {
        var results: [Int] = []
        var completed = false
        _ = Observable.of(1, 2, 3).flatMap { Observable.of($0, $0 * 10) }.subscribe(onNext: { results.append($0) }, onCompleted: { completed = true })
        XCTAssertEqual(results, [1, 10, 2, 20, 3, 30])
        XCTAssertTrue(completed)
    }
}

final class ObservableFlatMapJustInnerTests: RxTestCase {
    func testFlatMapWithJustInnersAtTheirTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.flatMap { Observable.just($0 * 10) } }
        XCTAssertEqual(res.events, [.next(210, 10), .next(220, 20), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testFlatMapLatestJustInnerDisposesPreviousInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let slow = scheduler.createColdObservable([.next(50, 100), .completed(60)])
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(300, 3), .completed(310)])
        let res = scheduler.start {
            xs.flatMapLatest { value -> Observable<Int> in
                value == 2 ? Observable.just(value) : slow.asObservable()
            }
        }
        XCTAssertEqual(res.events, [.next(220, 2), .next(350, 100), .completed(360)])
        XCTAssertEqual(slow.subscriptions, [Subscription(210, 220), Subscription(300, 360)])
    }

    func testFlatMapLatestJustInnerAfterSourceCompletedCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let res = scheduler.start { xs.flatMapLatest { Observable.just($0) } }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
    }

    func testFlatMapJustInnerReentrantSource() {
        // The observer feeds the source again while handling an element of a `just` inner.
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = subject.flatMap { Observable.just($0) }.subscribe(onNext: { value in
            received.append(value)
            if value < 3 { subject.onNext(value + 1) }
        })
        subject.onNext(1)
        subscription.dispose()
        XCTAssertEqual(received, [1, 2, 3])
    }
}
