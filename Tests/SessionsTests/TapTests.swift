import RxSwift
import RxTest
import XCTest
@testable import Sessions

/// The session's marble tap: what it records, and only while observed.
final class TapTests: XCTestCase {
    func testTapPassesEventsThroughAndRecordsOnlyWhileObserved() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(240, 4), .next(260, 5), .completed(300),
        ])
        let tap = Tap<String>()
        var transformed: [Int] = []
        let watcher = scheduler.createObserver(String.self)
        var watching: Disposable?
        scheduler.scheduleAt(215) { watching = tap.subscribe(watcher) }
        scheduler.scheduleAt(250) { watching?.dispose() }
        let res = scheduler.start {
            xs.recording(into: tap) { event -> String in
                if case .next(let value) = event { transformed.append(value) }
                return "\(event)"
            }
        }
        // Downstream sees every event, watched or not.
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .next(240, 4), .next(260, 5), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        // The tap saw only what happened while it was observed, and the transform ran only then.
        XCTAssertEqual(watcher.events, [.next(220, "next(3)"), .next(240, "next(4)")])
        XCTAssertEqual(transformed, [3, 4])
        XCTAssertFalse(tap.isObserved)
    }

    func testTapRecordsErrorsAndCompletionAsValuesAndFinishCompletesObservers() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let ys = scheduler.createHotObservable([.next(220, 10), .error(240, testError)])
        let tap = Tap<String>()
        let watcher = scheduler.createObserver(String.self)
        let describe = { (lane: String) in { (event: Event<Int>) -> String in
            switch event {
            case .next(let value): "\(lane) \(value)"
            case .error: "\(lane) error"
            case .completed: "\(lane) completed"
            }
        } }
        var watching: Disposable?
        scheduler.scheduleAt(100) { watching = tap.subscribe(watcher) }
        scheduler.scheduleAt(250) { tap.finish() }
        scheduler.scheduleAt(260) { tap.record("after finish") }
        let late = scheduler.createObserver(String.self)
        var lateWatching: Disposable?
        scheduler.scheduleAt(270) { lateWatching = tap.subscribe(late) }
        let left = scheduler.createObserver(Int.self)
        let right = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(xs.recording(into: tap, describe("x")).subscribe(left))
            subscriptions.append(ys.recording(into: tap, describe("y")).subscribe(right))
        }
        scheduler.start()
        XCTAssertEqual(watcher.events, [
            .next(210, "x 1"), .next(220, "y 10"), .next(230, "x completed"), .next(240, "y error"), .completed(250),
        ])
        XCTAssertEqual(late.events, [.completed(270)], "an observer after finish() completes at once")
        lateWatching?.dispose()
        XCTAssertEqual(left.events, [.next(210, 1), .completed(230)])
        XCTAssertEqual(right.events, [.next(220, 10), .error(240, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])
        watching?.dispose()
        subscriptions.forEach { $0.dispose() }
    }

    func testATapNobodyObservedCompletesItsFirstObserverIfFinished() {
        let tap = Tap<Int>()
        tap.record(1)
        tap.finish()
        var events: [Event<Int>] = []
        let watching = tap.subscribe { events.append($0) }
        XCTAssertEqual(events, [.completed])
        watching.dispose()
    }

    func testTapDisposalStopsTheSourceAndRecordFeedsObserversDirectly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
        let tap = Tap<Event<Int>>()
        let watcher = scheduler.createObserver(Event<Int>.self)
        let watching = tap.subscribe(watcher)
        XCTAssertTrue(tap.isObserved)
        scheduler.scheduleAt(230) { tap.record(.next(99)) }
        let res = scheduler.start(disposed: 250) { xs.recording(into: tap) { $0 } }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        // The event at 260 came after disposal: neither downstream nor the tap saw it.
        XCTAssertEqual(watcher.events, [.next(210, Event.next(1)), .next(230, Event.next(99))])
        watching.dispose()
        XCTAssertFalse(tap.isObserved)
    }
}

private struct TapTestError: Error, Equatable {}
private let testError = TapTestError()

extension ObservableType {
    /// Records each event of this sequence into `tap` as `transform` describes it, the way a
    /// session records its inputs' and outputs' marbles.
    fileprivate func recording<Value>(into tap: Tap<Value>, _ transform: @escaping (Event<Element>) -> Value) -> Observable<Element> {
        self.do(onNext: { tap.record(transform(.next($0))) },
                onError: { tap.record(transform(.error($0))) },
                onCompleted: { tap.record(transform(.completed)) })
    }
}
