import RxSwift
import RxTest
import XCTest

final class ObservableSampleTests: RxTestCase {
    func testSampleSendsLatestElementAtEachTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6), .completed(390),
        ])
        let ys = scheduler.createHotObservable([
            .next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"), .next(320, "baz"), .completed(500),
        ])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.next(250, 3), .next(320, 6), .completed(500)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 390)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 500)])
    }

    func testSampleSendsDefaultValueWhenNothingNew() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 2), .completed(400)])
        let ys = scheduler.createHotObservable([.next(210, ()), .next(250, ()), .next(300, ()), .next(410, ())])
        let res = scheduler.start { xs.sample(ys, defaultValue: 0) }
        XCTAssertEqual(res.events, [.next(210, 0), .next(250, 2), .next(300, 0), .next(410, 0), .completed(410)])
    }

    func testSampleErrorOfEitherSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 2), .error(240, testError)])
        let ys = scheduler.createHotObservable([.next(230, 0)])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.next(230, 2), .error(240, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])

        let xs2 = scheduler.createHotObservable([.next(1220, 2)])
        let ys2: TestableObservable<Int> = scheduler.createHotObservable([.error(1230, testError1)])
        let res2 = scheduler.start(created: 1000, subscribed: 1200, disposed: 2000) { xs2.sample(ys2) }
        XCTAssertEqual(res2.events, [Recorded<Event<Int>>.error(1230, testError1)])
        XCTAssertEqual(xs2.subscriptions, [Subscription(1200, 1230)])
    }

    func testSampleDisposedMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 2), .next(260, 3)])
        let ys = scheduler.createHotObservable([.next(230, 0), .next(270, 0)])
        let res = scheduler.start(disposed: 250) { xs.sample(ys) }
        XCTAssertEqual(res.events, [.next(230, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
    }

    func testSampleReentrantElementIsSampledNextTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let ticks = scheduler.createHotObservable([.next(210, 0), .next(220, 0), .next(230, 0)])
        var received: [Recorded<Event<Int>>] = []
        let subscription = subject.sample(ticks).subscribe { event in
            received.append(Recorded(time: scheduler.clock, value: event))
            if case .next(1) = event {
                subject.onNext(2)
            }
        }
        scheduler.scheduleAt(205) { subject.onNext(1) }
        let anomalies = recordingAnomalies { scheduler.start() }
        XCTAssertEqual(received, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(anomalies, [])
        subscription.dispose()
    }
}
