import RxSwift
import RxTest
import XCTest

final class ObservableGroupByTests: RxTestCase {
    func testGroupBySendsEachKeyOnceAndRoutesElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, "a1"), .next(220, "b1"), .next(230, "a2"), .next(240, "c1"), .next(250, "b2"), .completed(300),
        ])
        let res = scheduler.start { xs.groupBy { String($0.prefix(1)) }.map { $0.key } }
        XCTAssertEqual(res.events, [.next(210, "a"), .next(220, "b"), .next(240, "c"), .completed(300)])

        let elements = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { () -> Observable<String> in
            let ys = scheduler.createHotObservable([
                .next(1210, "a1"), .next(1220, "b1"), .next(1230, "a2"), .next(1250, "b2"), .completed(1300),
            ])
            return ys.groupBy { String($0.prefix(1)) }.flatMap { group in group.map { "\(group.key):\($0)" } }
        }
        XCTAssertEqual(elements.events, [
            .next(1210, "a:a1"), .next(1220, "b:b1"), .next(1230, "a:a2"), .next(1250, "b:b2"), .completed(1300),
        ])
    }

    func testGroupsEndWithSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, testError)])
        let odd = scheduler.createObserver(Int.self)
        let even = scheduler.createObserver(Int.self)
        let outer = scheduler.createObserver(Bool.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(xs.groupBy { $0 % 2 == 1 }.subscribe { event in
                if case .next(let group) = event {
                    subscriptions.append(group.subscribe(group.key ? odd : even))
                    outer.onNext(group.key)
                } else if case .error(let error) = event {
                    outer.onError(error)
                }
            })
        }
        scheduler.start()
        XCTAssertEqual(outer.events, [.next(210, true), .next(220, false), .error(230, testError)])
        XCTAssertEqual(odd.events, [.next(210, 1), .error(230, testError)])
        XCTAssertEqual(even.events, [.next(220, 2), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        subscriptions.forEach { $0.dispose() }
    }

    func testGroupByKeySelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let res = scheduler.start {
            xs.groupBy { value -> Int in
                if value == 2 { throw testError }
                return value
            }.flatMap { $0.asObservable() }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testGroupSubscriptionKeepsSourceAliveAfterOuterDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 1), .next(230, 1)])
        let observer = scheduler.createObserver(Int.self)
        var outer: Disposable?
        var inner: Disposable?
        scheduler.scheduleAt(200) {
            outer = xs.groupBy { $0 }.subscribe(onNext: { group in inner = group.subscribe(observer) })
        }
        scheduler.scheduleAt(215) { outer?.dispose() }
        scheduler.scheduleAt(225) { inner?.dispose() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(210, 1), .next(220, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }

    func testGroupByDisposedMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3)])
        let res = scheduler.start(disposed: 230) { xs.groupBy { $0 }.map { $0.key } }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testGroupByReentrantElementJoinsItsGroup() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [Recorded<Event<String>>] = []
        let subscription = subject.groupBy { $0 % 2 }.flatMap { group in group.map { "\(group.key):\($0)" } }.subscribe { event in
            received.append(Recorded(time: scheduler.clock, value: event))
            if case .next("1:1") = event {
                subject.onNext(3)
                subject.onNext(4)
            }
        }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        let anomalies = recordingAnomalies { scheduler.start() }
        XCTAssertEqual(received, [.next(210, "1:1"), .next(210, "1:3"), .next(210, "0:4")])
        XCTAssertEqual(Set(anomalies), reentrancyIsTracked ? [.reentrancy] : [])
        subscription.dispose()
    }
}
