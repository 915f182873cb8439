import RxSwift
import RxTest
import XCTest

final class ObservableWindowTests: RxTestCase {
    /// The elements of every window, as "window-index element".
    private func labelled(_ windows: Observable<Observable<Int>>) -> Observable<String> {
        var index = -1
        return windows.flatMap { window -> Observable<String> in
            index += 1
            let current = index
            return window.map { "\(current) \($0)" }
        }
    }

    func testWindowOpensNewWindowEachTimeSpan() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5),
            .next(350, 6), .next(370, 7), .next(420, 8), .next(470, 9), .completed(600),
        ])
        let res = scheduler.start { self.labelled(xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler)) }
        XCTAssertEqual(res.events, [
            .next(210, "0 2"), .next(240, "0 3"),
            .next(280, "1 4"), .next(320, "1 5"),
            .next(350, "2 6"), .next(370, "2 7"),
            .next(420, "3 8"), .next(470, "3 9"),
            .completed(600),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 600)])
    }

    func testWindowFullWindowStartsNewOne() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(290, 5), .completed(300)])
        let res = scheduler.start { self.labelled(xs.window(timeSpan: .seconds(50), count: 3, scheduler: scheduler)) }
        XCTAssertEqual(res.events, [
            .next(210, "0 1"), .next(220, "0 2"), .next(230, "0 3"),
            .next(240, "1 4"), .next(290, "2 5"),
            .completed(300),
        ])
    }

    func testWindowsCompleteWhenNextOneOpens() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        var windows: [Observable<Int>] = []
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(xs.window(timeSpan: .seconds(50), count: 10, scheduler: scheduler).subscribe(onNext: { window in
                windows.append(window)
                subscriptions.append(window.subscribe(windows.count == 1 ? first : second))
            }))
        }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .completed(250)])
        XCTAssertEqual(second.events, [.next(260, 2), .completed(300)])
        XCTAssertEqual(windows.count, 2)
        subscriptions.forEach { $0.dispose() }
    }

    func testWindowError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let res = scheduler.start { self.labelled(xs.window(timeSpan: .seconds(50), count: 3, scheduler: scheduler)) }
        XCTAssertEqual(res.events, [.next(210, "0 1"), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testWindowDisposedMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .next(320, 3)])
        let res = scheduler.start(disposed: 300) { self.labelled(xs.window(timeSpan: .seconds(50), count: 3, scheduler: scheduler)) }
        XCTAssertEqual(res.events, [.next(210, "0 1"), .next(260, "1 2")])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testWindowSubscriptionKeepsSourceAliveAfterOuterDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        let observer = scheduler.createObserver(Int.self)
        var outer: Disposable?
        var inner: Disposable?
        scheduler.scheduleAt(200) {
            outer = xs.window(timeSpan: .seconds(1000), count: 10, scheduler: scheduler).subscribe(onNext: { window in
                inner = window.subscribe(observer)
            })
        }
        scheduler.scheduleAt(215) { outer?.dispose() }
        scheduler.scheduleAt(225) { inner?.dispose() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }

    func testWindowReentrantElementGoesToCurrentWindow() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [Recorded<Event<String>>] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = self.labelled(subject.window(timeSpan: .seconds(100), count: 2, scheduler: scheduler)).subscribe { event in
                received.append(Recorded(time: scheduler.clock, value: event))
                if case .next("0 1") = event {
                    subject.onNext(2)
                }
            }
        }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(250) { subject.onCompleted() }
        let anomalies = recordingAnomalies { scheduler.start() }
        XCTAssertEqual(received, [.next(210, "0 1"), .next(210, "0 2"), .completed(250)])
        XCTAssertEqual(Set(anomalies), reentrancyIsTracked ? [.reentrancy] : [])
        subscription?.dispose()
    }
}
