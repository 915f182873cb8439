import RxSwift
import RxTest
import XCTest

/// `subscribe(anyObserver:)` takes the operators' erased path; it must show an observer
/// exactly what the generic `subscribe(_:)` shows any other.
final class ObservableSubscribeAnyObserverTests: RxTestCase {
    func testAnAnyObserverGetsTheSameEventsAsAGenericObserver() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(230)])
        let ys = scheduler.createHotObservable([.next(150, 10), .next(215, 20), .next(235, 30), .completed(240)])
        let source = Observable.combineLatest(xs, ys) { $0 + $1 }.map { $0 * 2 }
        let erased = scheduler.createObserver(Int.self)
        let generic = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(source.subscribe(anyObserver: erased.asObserver()))
            subscriptions.append(source.subscribe(generic))
        }
        scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()

        XCTAssertEqual(erased.events, [.next(215, 44), .next(220, 46), .next(235, 66), .completed(240)])
        XCTAssertEqual(erased.events, generic.events)
        XCTAssertEqual(xs.subscriptions.count, 2)
        XCTAssertEqual(xs.subscriptions[0], xs.subscriptions[1])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240), Subscription(200, 240)])
    }

    func testDisposingTheSubscriptionEndsTheEventsAndTheSourceSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let observer = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) { subscription = xs.filter { $0 != 2 }.subscribe(anyObserver: observer.asObserver()) }
        scheduler.scheduleAt(225) { subscription?.dispose() }
        scheduler.start()

        XCTAssertEqual(observer.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }
}
