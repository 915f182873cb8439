import RxSwift
import RxBlocking
import RxTest
import XCTest

final class ObservableToArrayTests: RxTestCase {
    func testToArraySendsAllElementsAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .completed(300),
        ])
        let res = scheduler.start { xs.toArray().asObservable() }
        XCTAssertEqual(res.events, [.next(300, [2, 3]), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testToArrayOfEmptyIsEmptyArray() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.toArray().asObservable() }
        XCTAssertEqual(res.events, [.next(250, []), .completed(250)])
    }

    func testToArrayErrorAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, testError)])
        let res = scheduler.start { xs.toArray().asObservable() }
        XCTAssertEqual(res.events, [.error(250, testError)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .completed(1300)])
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) { ys.toArray().asObservable() }
        XCTAssertEqual(disposed.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])
    }

    func testToArrayIsASingle() {
        var results: [SingleEvent<[Int]>] = []
        let subscription = Observable.of(1, 2, 3).toArray().subscribe { results.append($0) }
        XCTAssertEqual(results.count, 1)
        XCTAssertEqual(try results.first?.get(), [1, 2, 3])
        subscription.dispose()
    }

    func testToArrayThrowingUpstreamClosure() throws {
        let values = Observable.of(1, 2, 3).map { value -> Int in
            if value == 3 { throw testError }
            return value
        }.toArray()
        XCTAssertThrowsError(try values.toBlocking(timeout: 5).single()) { XCTAssertEqual($0 as? TestError, testError) }
    }

    func testToArrayReentrantObserverFeedingSource() {
        let subject = PublishSubject<Int>()
        var arrays: [[Int]] = []
        let subscription = subject.toArray().subscribe(onSuccess: { array in
            arrays.append(array)
            subject.onNext(9)
        })
        subject.onNext(1)
        subject.onCompleted()
        XCTAssertEqual(arrays, [[1]])
        subscription.dispose()
    }
}
