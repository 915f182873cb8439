import RxSwift
import RxTest
import XCTest

final class ObservableBufferTests: RxTestCase {
    func testBufferSendsArrayEachTimeSpan() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5),
            .next(350, 6), .next(370, 7), .next(420, 8), .next(470, 9), .completed(600),
        ])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, [
            .next(270, [2, 3]),
            .next(340, [4, 5]),
            .next(410, [6, 7]),
            .next(480, [8, 9]),
            .next(550, []),
            .next(600, []),
            .completed(600),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 600)])
    }

    func testBufferFullArrayStartsNewTimeSpan() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(50), count: 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(230, [1, 2, 3]), .next(280, [4]), .next(300, []), .completed(300)])
    }

    func testBufferErrorDropsArray() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(50), count: 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testBufferDisposedMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(255, 2), .completed(400)])
        let res = scheduler.start(disposed: 260) { xs.buffer(timeSpan: .seconds(50), count: 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(250, [1])])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testBufferReentrantElementsFillNextArray() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [Recorded<Event<[Int]>>] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = subject.buffer(timeSpan: .seconds(100), count: 2, scheduler: scheduler).subscribe { event in
                received.append(Recorded(time: scheduler.clock, value: event))
                if case .next([1, 2]) = event {
                    subject.onNext(3)
                    subject.onNext(4)
                }
            }
        }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(210) { subject.onNext(2) }
        scheduler.scheduleAt(350) { subject.onCompleted() }
        let anomalies = recordingAnomalies { scheduler.start() }
        XCTAssertEqual(received, [.next(210, [1, 2]), .next(210, [3, 4]), .next(310, []), .next(350, []), .completed(350)])
        XCTAssertEqual(Set(anomalies), reentrancyIsTracked ? [.reentrancy] : [])
        subscription?.dispose()
    }
}
