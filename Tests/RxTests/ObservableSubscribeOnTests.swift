import Foundation
import RxSwift
import RxBlocking
import RxTest
import XCTest

final class ObservableSubscribeOnTests: RxTestCase {
    func testSubscribeOnSubscribesAndDisposesOnScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3)])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 1001)])
    }

    func testSubscribeOnCompletionAndError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(250)])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2), .completed(250)])
        // The source's subscription is disposed on the scheduler: one tick after the event.
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 251)])

        let ys: TestableObservable<Int> = scheduler.createHotObservable([.error(1250, testError)])
        let res2 = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { ys.subscribe(on: scheduler) }
        XCTAssertEqual(res2.events, [.error(1250, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1201, 1251)])
    }

    func testSubscribeOnDisposedBeforeSubscribingNeverSubscribes() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let xs = scheduler.createHotObservable([.next(210, 2)])
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.subscribe(on: scheduler).subscribe(onNext: { _ in XCTFail("no element expected") })
            subscription?.dispose()
        }
        scheduler.start()
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testSubscribeOnReentrantElementPassesThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [Recorded<Event<Int>>] = []
        let subscription = subject.subscribe(on: scheduler).subscribe { event in
            received.append(Recorded(time: scheduler.clock, value: event))
            if case .next(1) = event {
                subject.onNext(2)
            }
        }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        let anomalies = recordingAnomalies { scheduler.start() }
        XCTAssertEqual(received, [.next(210, 1), .next(210, 2)])
        XCTAssertEqual(Set(anomalies), reentrancyIsTracked ? [.reentrancy] : [])
        subscription.dispose()
        scheduler.start()
    }

    func testSubscribeOnDispatchQueueRunsSubscriptionThere() throws {
        let queue = DispatchQueue(label: "subscribe-on")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 3)
        let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
        let source = Observable<Bool>.create { observer in
            observer.onNext(DispatchQueue.getSpecific(key: key) == 3)
            observer.onCompleted()
            return Disposables.create()
        }
        XCTAssertEqual(try source.subscribe(on: scheduler).toBlocking(timeout: 5).toArray(), [true])
    }
}
