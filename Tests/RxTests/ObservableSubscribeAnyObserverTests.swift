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
        let events = eventsBothWays(scheduler, Observable.combineLatest(xs, ys) { $0 + $1 }.map { $0 * 2 })

        XCTAssertEqual(events, [.next(215, 44), .next(220, 46), .next(235, 66), .completed(240)])
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

    /// Subscribes `source` at 200 both ways (an `AnyObserver` takes the erased run, a
    /// `TestableObserver` the generic one), disposes both at `disposed`, checks that both saw
    /// the same events and returns them.
    private func eventsBothWays<Element: Equatable>(
        _ scheduler: TestScheduler, disposed: TestTime = 1000, _ source: Observable<Element>,
        file: StaticString = #filePath, line: UInt = #line
    ) -> [Recorded<Event<Element>>] {
        let erased = scheduler.createObserver(Element.self)
        let generic = scheduler.createObserver(Element.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(source.subscribe(anyObserver: erased.asObserver()))
            subscriptions.append(source.subscribe(generic))
        }
        scheduler.scheduleAt(disposed) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        XCTAssertEqual(erased.events, generic.events, "the erased and the generic run differ", file: file, line: line)
        return erased.events
    }

    func testDoRunsItsHandlersOnEitherPath() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        var seen: [Int] = []
        var subscribed = 0
        var disposed = 0
        let source = xs.do(onNext: { seen.append($0) }, onSubscribed: { subscribed += 1 }, onDispose: { disposed += 1 })
        let events = eventsBothWays(scheduler, source)

        XCTAssertEqual(events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(seen, [1, 1, 2, 2])
        XCTAssertEqual(subscribed, 2)
        XCTAssertEqual(disposed, 2)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230), Subscription(200, 230)])
    }

    func testDoHandlerErrorEndsEitherPath() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        let source = xs.do(onNext: { if $0 == 2 { throw testError } })
        let events = eventsBothWays(scheduler, source)

        XCTAssertEqual(events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(200, 220)])
    }

    func testWithLatestFromOnEitherPath() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(260, 3), .completed(300)])
        let second = scheduler.createHotObservable([.next(220, 10), .next(250, 20), .completed(270)])
        let events = eventsBothWays(scheduler, first.withLatestFrom(second) { $0 + $1 })

        XCTAssertEqual(events, [.next(230, 12), .next(260, 23), .completed(300)])
        XCTAssertEqual(first.subscriptions, [Subscription(200, 300), Subscription(200, 300)])
        XCTAssertEqual(second.subscriptions, [Subscription(200, 270), Subscription(200, 270)])
    }

    func testWithLatestFromDisposedOnEitherPathEndsBothSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createHotObservable([.next(210, 1), .next(300, 2)])
        let second = scheduler.createHotObservable([.next(205, 10), .next(280, 20)])
        let events = eventsBothWays(scheduler, disposed: 250, first.withLatestFrom(second))

        XCTAssertEqual(events, [.next(210, 10)])
        XCTAssertEqual(first.subscriptions, [Subscription(200, 250), Subscription(200, 250)])
        XCTAssertEqual(second.subscriptions, [Subscription(200, 250), Subscription(200, 250)])
    }

    /// A `just` whose events complete during the subscription: the sink's source slot is
    /// disposed before it is set, and the sequence still ends at once on either path.
    func testWithLatestFromOfASynchronousFirstOnEitherPath() {
        let scheduler = TestScheduler(initialClock: 0)
        let second = BehaviorSubject(value: 7)
        let events = eventsBothWays(scheduler, Observable.just(1).withLatestFrom(second) { $0 + $1 })

        XCTAssertEqual(events, [.next(200, 8), .completed(200)])
        XCTAssertFalse(second.hasObservers)
    }

    func testDelayOnEitherPath() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(220)])
        let events = eventsBothWays(scheduler, xs.delay(.seconds(20), scheduler: scheduler))

        XCTAssertEqual(events, [.next(230, 1), .next(235, 2), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(200, 220)])
    }

    /// Disposal cancels the drain that is due: nothing is sent after it, on either path.
    func testDelayDisposedWhileADrainIsPendingOnEitherPath() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(240)])
        let events = eventsBothWays(scheduler, disposed: 235, xs.delay(.seconds(20), scheduler: scheduler))

        XCTAssertEqual(events, [.next(230, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235), Subscription(200, 235)])
    }

    func testDelayErrorOnEitherPath() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .error(260, testError)])
        let events = eventsBothWays(scheduler, xs.delay(.seconds(30), scheduler: scheduler))

        XCTAssertEqual(events, [.next(240, 1), .error(260, testError)])
    }

    func testCatchOnEitherPath() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let ys = scheduler.createHotObservable([.next(215, 10), .next(230, 20), .completed(240)])
        let events = eventsBothWays(scheduler, xs.catch { _ in ys.asObservable() })

        XCTAssertEqual(events, [.next(210, 1), .next(230, 20), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 240), Subscription(220, 240)])
    }

    func testCatchHandlerErrorOnEitherPath() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError1)])
        let events = eventsBothWays(scheduler, xs.catch { _ in throw testError2 })

        XCTAssertEqual(events, [.next(210, 1), .error(220, testError2)])
    }
}
