import RxSwift
import RxTest
import XCTest

private struct Person {
    let name: String
    let age: Int
}

final class ObservableDistinctUntilChangedTests: RxTestCase {
    func testDistinctUntilChangedDropsConsecutiveDuplicates() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(215, 2), .next(220, 3), .next(225, 2), .next(230, 2), .completed(300),
        ])
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .next(225, 2), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testDistinctUntilChangedKeySelectorComparerAndKeyPath() {
        func run(_ operation: @escaping (Observable<String>) -> Observable<String>) -> [Recorded<Event<String>>] {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(210, "a"), .next(220, "A"), .next(230, "b"), .next(240, "bb"), .completed(300),
            ])
            return scheduler.start { operation(xs.asObservable()) }.events
        }
        XCTAssertEqual(run { $0.distinctUntilChanged { $0.lowercased() } }, [.next(210, "a"), .next(230, "b"), .next(240, "bb"), .completed(300)])
        XCTAssertEqual(run { $0.distinctUntilChanged { (lhs: String, rhs: String) in lhs.count == rhs.count } }, [.next(210, "a"), .next(240, "bb"), .completed(300)])
        XCTAssertEqual(run { $0.distinctUntilChanged({ $0.first! }, comparer: { $0.lowercased() == $1.lowercased() }) }, [.next(210, "a"), .next(230, "b"), .completed(300)])

        let scheduler = TestScheduler(initialClock: 0)
        let people = scheduler.createHotObservable([
            .next(210, Person(name: "ann", age: 30)),
            .next(220, Person(name: "bob", age: 30)),
            .next(230, Person(name: "cat", age: 31)),
            .completed(300),
        ])
        let byKeyPath = scheduler.start { people.distinctUntilChanged(at: \.age).map(\.name) }
        XCTAssertEqual(byKeyPath.events, [.next(210, "ann"), .next(230, "cat"), .completed(300)])
    }

    func testDistinctUntilChangedErrorsAndThrowingClosures() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 1), .error(250, testError)])
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertEqual(res.events, [.next(210, 1), .error(250, testError)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .next(1220, 2), .next(1230, 3)])
        let keyThrows = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            ys.distinctUntilChanged { value -> Int in
                if value == 2 { throw testError1 }
                return value
            }
        }
        XCTAssertEqual(keyThrows.events, [.next(1210, 1), .error(1220, testError1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1220)])

        let zs = scheduler.createHotObservable([.next(2210, 1), .next(2220, 2)])
        let comparerThrows = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            zs.distinctUntilChanged { (_: Int, _: Int) -> Bool in throw testError2 }
        }
        XCTAssertEqual(comparerThrows.events, [.next(2210, 1), .error(2220, testError2)])
    }

    func testDistinctUntilChangedDisposedMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
        let res = scheduler.start(disposed: 250) { xs.distinctUntilChanged() }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDistinctUntilChangedReentrantDuplicateIsDropped() {
        // The observer sends the same value again while handling it: it is a duplicate of
        // the last one sent and is dropped.
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        let anomalies = recordingAnomalies {
            let subscription = subject.distinctUntilChanged().subscribe(onNext: { value in
                values.append(value)
                if value == 1 {
                    subject.onNext(1)
                    subject.onNext(2)
                }
            })
            subject.onNext(1)
            subscription.dispose()
        }
        XCTAssertEqual(values, [1, 2])
        XCTAssertEqual(anomalies.contains(.reentrancy), reentrancyIsTracked)
    }
}
