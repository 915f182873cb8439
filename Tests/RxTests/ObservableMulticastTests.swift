import RxSwift
import RxTest
import XCTest

final class ObservableMulticastTests: RxTestCase {
    func testPublishSharesOneSubscriptionPerConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(110, 7), .next(220, 3), .next(280, 4), .next(290, 1), .next(340, 8), .next(360, 5),
            .next(370, 6), .next(390, 7), .next(410, 13), .next(430, 2), .next(450, 9), .next(520, 11),
            .next(560, 20), .completed(600),
        ])
        let observer = scheduler.createObserver(Int.self)
        var published: ConnectableObservable<Int>?
        var subscription: Disposable?
        var connection: Disposable?
        scheduler.scheduleAt(100) { published = xs.publish() }
        scheduler.scheduleAt(200) { subscription = published!.subscribe(observer) }
        scheduler.scheduleAt(300) { connection = published!.connect() }
        scheduler.scheduleAt(400) { connection!.dispose() }
        scheduler.scheduleAt(500) { connection = published!.connect() }
        scheduler.scheduleAt(550) { connection!.dispose() }
        scheduler.scheduleAt(650) { connection = published!.connect() }
        scheduler.scheduleAt(800) { connection!.dispose() }
        scheduler.scheduleAt(1000) { subscription!.dispose() }
        scheduler.start()
        // Each connection after a disconnect multicasts through a new subject (RxSwift's
        // `multicast(makeSubject:)`): the observer subscribed at 200 only hears the first one.
        XCTAssertEqual(observer.events, [.next(340, 8), .next(360, 5), .next(370, 6), .next(390, 7)])
        XCTAssertEqual(xs.subscriptions, [Subscription(300, 400), Subscription(500, 550), Subscription(650, 800)])
    }

    func testConnectTwiceReturnsTheSameConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let observer = scheduler.createObserver(Int.self)
        let published = xs.publish()
        let subscription = published.subscribe(observer)
        var connections: [Disposable] = []
        scheduler.scheduleAt(200) { connections = [published.connect(), published.connect()] }
        scheduler.scheduleAt(220) { connections[1].dispose() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        connections[0].dispose()
        subscription.dispose()
    }

    func testReplayAndReplayAllReplayToLateObservers() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
        let lastTwo = xs.replay(2)
        let all = xs.replayAll()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let lateAll = scheduler.createObserver(Int.self)
        let afterEnd = scheduler.createObserver(Int.self)
        var disposables: [Disposable] = []
        scheduler.scheduleAt(200) { disposables += [lastTwo.connect(), all.connect()] }
        scheduler.scheduleAt(235) { disposables.append(lastTwo.subscribe(early)) }
        scheduler.scheduleAt(250) { disposables += [lastTwo.subscribe(late), all.subscribe(lateAll)] }
        // The completed connection dropped its subject: a subscriber after it waits for the next.
        scheduler.scheduleAt(400) { disposables.append(all.subscribe(afterEnd)) }
        scheduler.start()
        XCTAssertEqual(early.events, [.next(235, 2), .next(235, 3), .next(240, 4), .completed(300)])
        XCTAssertEqual(late.events, [.next(250, 3), .next(250, 4), .completed(300)])
        XCTAssertEqual(lateAll.events, [.next(250, 1), .next(250, 2), .next(250, 3), .next(250, 4), .completed(300)])
        XCTAssertEqual(afterEnd.events, [])
        disposables.forEach { $0.dispose() }
    }

    /// `replay` and `replayAll` reconnected after a disconnect multicast through a fresh
    /// subject: nothing of the first connection is replayed, and its observers hear no more.
    func testReplayReconnectedAfterDisconnectUsesAFreshSubject() {
        let makers: [(Observable<Int>) -> ConnectableObservable<Int>] = [{ $0.replay(1) }, { $0.replayAll() }]
        for makeReplayed in makers {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(320, 3), .next(330, 4), .completed(500)])
            let replayed = makeReplayed(xs.asObservable())
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            var connection: Disposable?
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) {
                subscriptions.append(replayed.subscribe(first))
                connection = replayed.connect()
            }
            scheduler.scheduleAt(250) { connection?.dispose() }
            scheduler.scheduleAt(300) {
                subscriptions.append(replayed.subscribe(second))
                connection = replayed.connect()
            }
            scheduler.scheduleAt(400) { connection?.dispose() }
            scheduler.start()
            XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2)])
            XCTAssertEqual(second.events, [.next(320, 3), .next(330, 4)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250), Subscription(300, 400)])
            subscriptions.forEach { $0.dispose() }
        }
    }

    func testMulticastSubjectFactoryMakesNewSubjectPerConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(260, 3)])
        let fresh = xs.multicast(makeSubject: { ReplaySubject<Int>.create(bufferSize: 1) })
        let shared = xs.multicast(ReplaySubject<Int>.create(bufferSize: 1))
        let freshObserver = scheduler.createObserver(Int.self)
        let sharedObserver = scheduler.createObserver(Int.self)
        var connections: [Disposable] = []
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) { connections = [fresh.connect(), shared.connect()] }
        scheduler.scheduleAt(230) { connections.forEach { $0.dispose() } }
        scheduler.scheduleAt(240) {
            subscriptions = [fresh.subscribe(freshObserver), shared.subscribe(sharedObserver)]
        }
        scheduler.scheduleAt(250) { connections = [fresh.connect(), shared.connect()] }
        scheduler.start()
        XCTAssertEqual(freshObserver.events, [.next(260, 3)])
        XCTAssertEqual(sharedObserver.events, [.next(240, 2), .next(260, 3)])
        connections.forEach { $0.dispose() }
        subscriptions.forEach { $0.dispose() }
    }

    func testConnectionEndsWithSourceAndNextConnectResubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let connectable = xs.multicast(makeSubject: { PublishSubject<Int>() })
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        var disposables: [Disposable] = []
        scheduler.scheduleAt(200) {
            disposables.append(connectable.subscribe(first))
            disposables.append(connectable.connect())
        }
        scheduler.scheduleAt(300) {
            disposables.append(connectable.subscribe(second))
            disposables.append(connectable.connect())
        }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(second.events, [.next(310, 1), .completed(320)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(300, 320)])
        disposables.forEach { $0.dispose() }
    }

    func testMulticastSelectorSharesOneSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let res = scheduler.start {
            xs.multicast({ PublishSubject<Int>() }, selector: { shared in
                Observable.merge(shared, shared.map { $0 * 10 })
            })
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(210, 10), .next(220, 2), .next(220, 20), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testMulticastSelectorAndSubjectSelectorThrow() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(30)])
        let res = scheduler.start {
            xs.multicast({ PublishSubject<Int>() }, selector: { (_: Observable<Int>) throws -> Observable<Int> in throw testError })
        }
        XCTAssertEqual(res.events, [.error(200, testError)])
        let res2 = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            xs.multicast({ () throws -> PublishSubject<Int> in throw testError1 }, selector: { $0 })
        }
        XCTAssertEqual(res2.events, [.error(1200, testError1)])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testMulticastSelectorErrorAndDisposalMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let res = scheduler.start { xs.multicast({ PublishSubject<Int>() }, selector: { $0 }) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])

        let ys = scheduler.createColdObservable([.next(10, 1), .next(100, 2)])
        let res2 = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) { ys.multicast({ PublishSubject<Int>() }, selector: { $0 }) }
        XCTAssertEqual(res2.events, [.next(1210, 1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])
    }

    func testPublishReentrantElementReachesEveryObserver() {
        let subject = PublishSubject<Int>()
        let published = subject.publish()
        var first: [Int] = []
        var second: [Int] = []
        let subscription1 = published.subscribe(onNext: { value in
            first.append(value)
            if value == 1 { subject.onNext(2) }
        })
        let subscription2 = published.subscribe(onNext: { second.append($0) })
        let connection = published.connect()
        let anomalies = recordingAnomalies { subject.onNext(1) }
        XCTAssertEqual(first, [1, 2])
        // As with any subject, the reentrant element overtakes the one being delivered.
        XCTAssertEqual(second, [2, 1])
        XCTAssertEqual(Set(anomalies), reentrancyIsTracked ? [.reentrancy] : [])
        connection.dispose()
        subscription1.dispose()
        subscription2.dispose()
    }
}
