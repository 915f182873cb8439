import RxSwift
import RxTest
import XCTest

final class ObservableDoTests: RxTestCase {
    func testDoRunsHandlersAroundEachEventInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)])
        var log: [String] = []
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) {
            _ = xs.do(
                onNext: { log.append("next \($0) at \(scheduler.clock)") },
                afterNext: { log.append("after next \($0)") },
                onCompleted: { log.append("completed at \(scheduler.clock)") },
                afterCompleted: { log.append("after completed") },
                onSubscribe: { log.append("subscribe") },
                onSubscribed: { log.append("subscribed") },
                onDispose: { log.append("dispose at \(scheduler.clock)") }
            )
            .do(onNext: { log.append("downstream \($0)") })
            .subscribe(observer)
        }
        scheduler.start()
        XCTAssertEqual(log, [
            "subscribe", "subscribed",
            "next 2 at 210", "downstream 2", "after next 2",
            "next 3 at 220", "downstream 3", "after next 3",
            // The downstream operator disposes this subscription when it forwards completion.
            "completed at 250", "dispose at 250", "after completed",
        ])
        XCTAssertEqual(observer.events, [.next(210, 2), .next(220, 3), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDoErrorHandlersAndDisposalMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(250, testError)])
        var log: [String] = []
        let res = scheduler.start {
            xs.do(onError: { log.append("error \($0)") }, afterError: { _ in log.append("after error") }, onDispose: { log.append("dispose") })
        }
        XCTAssertEqual(res.events, [.next(210, 2), .error(250, testError)])
        XCTAssertEqual(log, ["error TestError(1)", "after error", "dispose"])

        let ys = scheduler.createHotObservable([.next(1210, 2), .next(1260, 3)])
        var disposedAt: [TestTime] = []
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) {
            ys.do(onDispose: { disposedAt.append(scheduler.clock) })
        }
        XCTAssertEqual(disposed.events, [.next(1210, 2)])
        XCTAssertEqual(disposedAt, [1250])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])
    }

    func testDoThrowingHandlersSendTheirErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let onNextThrows = scheduler.start {
            xs.do(onNext: { if $0 == 2 { throw testError1 } })
        }
        XCTAssertEqual(onNextThrows.events, [.next(210, 1), .error(220, testError1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .next(1220, 2), .completed(1250)])
        let afterNextThrows = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            ys.do(afterNext: { if $0 == 1 { throw testError2 } })
        }
        XCTAssertEqual(afterNextThrows.events, [.next(1210, 1), .error(1210, testError2)])

        let zs = scheduler.createHotObservable([.completed(2250)] as [Recorded<Event<Int>>])
        let onCompletedThrows = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            zs.do(onCompleted: { throw testError })
        }
        XCTAssertEqual(onCompletedThrows.events, [.error(2250, testError)])

        let ws = scheduler.createHotObservable([.completed(3250)] as [Recorded<Event<Int>>])
        let afterCompletedThrows = scheduler.start(created: 3100, subscribed: 3200, disposed: 4000) {
            ws.do(afterCompleted: { throw testError })
        }
        XCTAssertEqual(afterCompletedThrows.events, [.completed(3250)])
    }

    func testDoReentrantHandlerFeedingSource() {
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        let anomalies = recordingAnomalies {
            let subscription = subject.do(afterNext: { if $0 == 1 { subject.onNext(2) } })
                .subscribe(onNext: { values.append($0) })
            subject.onNext(1)
            subscription.dispose()
        }
        XCTAssertEqual(values, [1, 2])
        XCTAssertEqual(anomalies.contains(.reentrancy), reentrancyIsTracked)
    }
}
