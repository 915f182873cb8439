import RxSwift
import RxTest
import XCTest

final class ObservableFirstTests: RxTestCase {
    func testFirstSendsFirstElementAndDisposesSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(300)])
        let res = scheduler.start { xs.first().asObservable() }
        XCTAssertEqual(res.events, [.next(210, 2), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testFirstOfEmptyIsNil() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.first().asObservable() }
        XCTAssertEqual(res.events, [.next(250, nil), .completed(250)])
    }

    func testFirstErrorDisposalAndThrowingUpstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(250, testError)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.first().asObservable() }
        XCTAssertEqual(res.events, [.error(250, testError)])

        let ys = scheduler.createHotObservable([.next(1260, 1)])
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) { ys.first().asObservable() }
        XCTAssertEqual(disposed.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])

        let zs = scheduler.createHotObservable([.next(2210, 1)])
        let thrown = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            zs.map { _ -> Int in throw testError1 }.first().asObservable()
        }
        XCTAssertEqual(thrown.events, [.error(2210, testError1)])
    }

    func testFirstAsSingleSubscribe() {
        var results: [Int?] = []
        let subscription = Observable.of(4, 5).first().subscribe(onSuccess: { results.append($0) })
        let empty = Observable<Int>.empty().first().subscribe(onSuccess: { results.append($0) })
        XCTAssertEqual(results, [4, nil])
        subscription.dispose()
        empty.dispose()
    }

    func testFirstReentrantObserverFeedingSource() {
        let subject = PublishSubject<Int>()
        var results: [Int?] = []
        let subscription = subject.first().subscribe(onSuccess: { value in
            results.append(value)
            subject.onNext(99)
        })
        subject.onNext(1)
        XCTAssertEqual(results, [1])
        XCTAssertFalse(subject.hasObservers)
        subscription.dispose()
    }
}
