import RxSwift
import RxTest
import XCTest

final class ObservableShareReplayScopeTests: RxTestCase {
    func testShareSharesOneSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(250, 3), .next(270, 4), .completed(300)])
        let shared = xs.share()
        let late = scheduler.createObserver(Int.self)
        var lateSubscription: Disposable?
        scheduler.scheduleAt(215) { lateSubscription = shared.subscribe(late) }
        scheduler.scheduleAt(260) { lateSubscription?.dispose() }
        let res = scheduler.start { shared }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(250, 3), .next(270, 4), .completed(300)])
        XCTAssertEqual(late.events, [.next(220, 2), .next(250, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testShareReplayWhileConnectedForgetsAfterCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let shared = xs.share(replay: 1)
        let second = scheduler.createObserver(Int.self)
        let third = scheduler.createObserver(Int.self)
        var disposables: [Disposable] = []
        scheduler.scheduleAt(215) { disposables.append(shared.subscribe(second)) }
        scheduler.scheduleAt(400) { disposables.append(shared.subscribe(third)) }
        let res = scheduler.start { shared }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(second.events, [.next(215, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(third.events, [.next(410, 1), .next(420, 2), .completed(430)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230), Subscription(400, 430)])
        disposables.forEach { $0.dispose() }
    }

    func testShareReplayForeverReplaysAfterCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let shared = xs.share(replay: 1, scope: .forever)
        let third = scheduler.createObserver(Int.self)
        var disposables: [Disposable] = []
        scheduler.scheduleAt(400) { disposables.append(shared.subscribe(third)) }
        let res = scheduler.start { shared }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(third.events, [.next(400, 2), .completed(400)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        disposables.forEach { $0.dispose() }
    }

    func testScopesDifferAfterEveryObserverUnsubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(100, 3)])
        let whileConnected = xs.share(replay: 2, scope: .whileConnected)
        let forever = xs.share(replay: 2, scope: .forever)
        let whileConnectedObserver = scheduler.createObserver(Int.self)
        let foreverObserver = scheduler.createObserver(Int.self)
        var first: [Disposable] = []
        var second: [Disposable] = []
        scheduler.scheduleAt(200) {
            first = [whileConnected.subscribe(onNext: { _ in }), forever.subscribe(onNext: { _ in })]
        }
        scheduler.scheduleAt(225) { first.forEach { $0.dispose() } }
        scheduler.scheduleAt(300) {
            second = [whileConnected.subscribe(whileConnectedObserver), forever.subscribe(foreverObserver)]
        }
        scheduler.scheduleAt(350) { second.forEach { $0.dispose() } }
        scheduler.start()
        XCTAssertEqual(whileConnectedObserver.events, [.next(310, 1), .next(320, 2)])
        XCTAssertEqual(foreverObserver.events, [.next(300, 1), .next(300, 2), .next(310, 1), .next(320, 2)])
        XCTAssertEqual(xs.subscriptions, [
            Subscription(200, 225), Subscription(200, 225), Subscription(300, 350), Subscription(300, 350),
        ])
    }

    func testShareErrorAndDisposalMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let res = scheduler.start { xs.share(replay: 1) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .next(1260, 2)])
        let res2 = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) { ys.share() }
        XCTAssertEqual(res2.events, [.next(1210, 1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])
    }

    func testShareReentrantSubscriptionGetsReplay() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        var inner: [Int] = []
        var innerSubscription: Disposable?
        let outer = shared.subscribe(onNext: { value in
            if value == 1 {
                innerSubscription = shared.subscribe(onNext: { inner.append($0) })
            }
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(inner, [1, 2])
        innerSubscription?.dispose()
        outer.dispose()
        XCTAssertFalse(subject.hasObservers)
    }
}
