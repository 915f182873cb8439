import RxSwift
import RxBlocking
import RxTest
import XCTest

final class ObservableConcatTests: RxTestCase {
    func testConcatSubscribesToEachSourceInTurn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let ys = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let res = scheduler.start { Observable.concat([xs.asObservable(), ys.asObservable()]) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(240, 3), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 250)])
    }

    func testConcatStopsAtFirstError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let ys = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let res = scheduler.start { Observable.concat(xs.asObservable(), ys.asObservable()) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testConcatOfLazySequenceIsIteratedPerSubscription() throws {
        var made = 0
        let sources = (1...3).lazy.map { value -> Observable<Int> in
            made += 1
            return Observable.just(value)
        }
        let concatenated = Observable.concat(sources)
        XCTAssertEqual(try concatenated.toBlocking(timeout: 5).toArray(), [1, 2, 3])
        XCTAssertEqual(try concatenated.toBlocking(timeout: 5).toArray(), [1, 2, 3])
        XCTAssertEqual(made, 6)
    }

    func testConcatOfManySynchronousSourcesDoesNotGrowTheStack() throws {
        let sources = (0..<20_000).map { Observable.just($0) }
        let values = try Observable.concat(sources).toBlocking(timeout: 20).toArray()
        XCTAssertEqual(values.count, 20_000)
        XCTAssertEqual(values.last, 19_999)
    }

    func testConcatSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let res = scheduler.start { xs.concat(ys) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .completed(240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 240)])
    }

    func testConcatOfInnerSequencesWaitsForEachToComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner1 = scheduler.createColdObservable([.next(10, 1), .next(40, 2), .completed(50)])
        let inner2 = scheduler.createColdObservable([.next(5, 3), .completed(10)])
        let xs = scheduler.createHotObservable([
            .next(210, inner1.asObservable()), .next(220, inner2.asObservable()), .completed(230),
        ])
        let res = scheduler.start { xs.concat() }
        XCTAssertEqual(res.events, [.next(220, 1), .next(250, 2), .next(265, 3), .completed(270)])
        XCTAssertEqual(inner2.subscriptions, [Subscription(260, 270)])
    }

    func testConcatDisposedMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let ys = scheduler.createColdObservable([.next(10, 2), .next(50, 3), .completed(60)])
        let res = scheduler.start(disposed: 240) { Observable.concat([xs.asObservable(), ys.asObservable()]) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2)])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 240)])
    }

    func testConcatReentrantElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = PublishSubject<Int>()
        let ys = PublishSubject<Int>()
        var received: [Recorded<Event<Int>>] = []
        let subscription = Observable.concat(xs, ys).subscribe { event in
            received.append(Recorded(time: scheduler.clock, value: event))
            if case .next(1) = event {
                xs.onCompleted()
                ys.onNext(2)
            }
        }
        scheduler.scheduleAt(210) { xs.onNext(1) }
        let anomalies = recordingAnomalies { scheduler.start() }
        XCTAssertEqual(received, [.next(210, 1), .next(210, 2)])
        XCTAssertEqual(Set(anomalies), reentrancyIsTracked ? [.reentrancy] : [])
        subscription.dispose()
    }
}
