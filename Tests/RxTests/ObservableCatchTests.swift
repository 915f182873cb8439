import RxSwift
import RxTest
import XCTest

final class ObservableCatchTests: RxTestCase {
    func testCatchContinuesWithHandlersSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .error(230, testError), .next(240, 9)])
        let ys = scheduler.createColdObservable([.next(10, 3), .next(20, 4), .completed(30)])
        var caught: [TestError] = []
        let res = scheduler.start {
            xs.catch { error in
                caught.append(error as! TestError)
                return ys.asObservable()
            }
        }
        XCTAssertEqual(res.events, [.next(210, 2), .next(240, 3), .next(250, 4), .completed(260)])
        XCTAssertEqual(caught, [testError])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 260)])
    }

    func testCatchDoesNothingWithoutError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(230)])
        var handled = false
        let res = scheduler.start { xs.catch { _ in handled = true; return .just(0) } }
        XCTAssertEqual(res.events, [.next(210, 2), .completed(230)])
        XCTAssertFalse(handled)
    }

    func testCatchAndReturnSendsElementThenCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, testError)])
        let res = scheduler.start { xs.catchAndReturn(-1) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(230, -1), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testCatchHandlerThrowingOrReplacementFailingEndsWithThatError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, testError)])
        let thrown = scheduler.start { xs.catch { _ in throw testError1 } }
        XCTAssertEqual(thrown.events, [.next(210, 2), .error(230, testError1)])

        let zs = scheduler.createHotObservable([.error(1230, testError)] as [Recorded<Event<Int>>])
        let failing = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            zs.catch { _ in .error(testError2) }
        }
        XCTAssertEqual(failing.events, [.error(1230, testError2)])
    }

    func testCatchDisposedDuringReplacement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(230, testError)] as [Recorded<Event<Int>>])
        let ys = scheduler.createColdObservable([.next(10, 3), .next(100, 4)])
        let res = scheduler.start(disposed: 300) { xs.catch { _ in ys.asObservable() } }
        XCTAssertEqual(res.events, [.next(240, 3)])
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 300)])
    }

    func testCatchReentrantObserverFeedingReplacement() {
        let source = PublishSubject<Int>()
        let replacement = PublishSubject<Int>()
        var values: [Int] = []
        let anomalies = recordingAnomalies {
            let subscription = source.catch { _ in replacement.asObservable() }.subscribe(onNext: { value in
                values.append(value)
                if value == 1 { replacement.onNext(2) }
            })
            source.onError(testError)
            replacement.onNext(1)
            subscription.dispose()
        }
        XCTAssertEqual(values, [1, 2])
        XCTAssertEqual(anomalies.contains(.reentrancy), reentrancyIsTracked)
    }

    /// As before the sink kept its subscriptions itself: the handler runs, then the failed
    /// source's subscription ends, then the replacement's starts; disposal ends the replacement's.
    func testCatchEndsTheFailedSubscriptionBeforeSubscribingTheReplacement() {
        var log: [String] = []
        let trigger = PublishSubject<Int>()
        let source = Observable<Int>.create { observer in
            log.append("source subscribed")
            let subscription = trigger.subscribe(observer)
            return Disposables.create {
                subscription.dispose()
                log.append("source disposed")
            }
        }
        let replacement = Observable<Int>.create { observer in
            log.append("replacement subscribed")
            observer.onNext(5)
            return Disposables.create { log.append("replacement disposed") }
        }
        var values: [Int] = []
        let subscription = source.catch { _ in
            log.append("handler")
            return replacement
        }.subscribe(onNext: { values.append($0) })
        trigger.onNext(1)
        trigger.onError(testError)
        XCTAssertEqual(values, [1, 5])
        XCTAssertEqual(log, ["source subscribed", "handler", "source disposed", "replacement subscribed"])
        subscription.dispose()
        XCTAssertEqual(log.last, "replacement disposed")
        XCTAssertFalse(trigger.hasObservers)
    }

    /// A source that fails during its own subscription: its subscription, set after the
    /// replacement took over, is disposed at once.
    func testCatchOfASourceFailingDuringItsSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        var sourceDisposed = false
        let source = Observable<Int>.create { observer in
            observer.onError(testError)
            return Disposables.create { sourceDisposed = true }
        }
        let ys = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let res = scheduler.start { source.catch { _ in ys.asObservable() } }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
        XCTAssertTrue(sourceDisposed)
    }
}
