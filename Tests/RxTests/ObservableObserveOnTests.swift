import Foundation
import RxSwift
import RxBlocking
import RxTest
import XCTest

final class ObservableObserveOnTests: RxTestCase {
    func testObserveOnVirtualSchedulerShiftsEventsByOneTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(210, 3), .next(240, 4), .completed(300)])
        let res = scheduler.start { xs.observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(211, 2), .next(212, 3), .next(241, 4), .completed(301)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testObserveOnErrorAndDisposalMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let res = scheduler.start { xs.observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(211, 1), .error(221, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .next(1249, 2)])
        let res2 = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) { ys.observe(on: scheduler) }
        XCTAssertEqual(res2.events, [.next(1211, 1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])
    }

    func testObserveOnReentrantElementIsQueuedBehind() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [Recorded<Event<Int>>] = []
        let subscription = subject.observe(on: scheduler).subscribe { event in
            received.append(Recorded(time: scheduler.clock, value: event))
            if case .next(1) = event {
                subject.onNext(2)
            }
        }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        let anomalies = recordingAnomalies { scheduler.start() }
        XCTAssertEqual(received, [.next(211, 1), .next(212, 2)])
        XCTAssertEqual(anomalies, [])
        subscription.dispose()
    }

    func testObserveOnSerialQueueDeliversInOrderOnTheQueue() throws {
        let queue = DispatchQueue(label: "observe-on-serial")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
        let onQueue = Observable.from(Array(0..<1_000))
            .observe(on: scheduler)
            .map { ($0, DispatchQueue.getSpecific(key: key) == 7) }
        let values = try onQueue.toBlocking(timeout: 5).toArray()
        XCTAssertEqual(values.map { $0.0 }, Array(0..<1_000))
        XCTAssertTrue(values.allSatisfy { $0.1 })
    }

    func testObserveOnConcurrentSchedulerNeverOverlapsEvents() throws {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let anomalies = AnomalyRecorder()
        let previous = Hooks.synchronizationAnomalyHandler
        Hooks.synchronizationAnomalyHandler = { anomalies.record($0) }
        defer { Hooks.synchronizationAnomalyHandler = previous }
        let values = try Observable.from(Array(0..<2_000))
            .observe(on: scheduler)
            .toBlocking(timeout: 10)
            .toArray()
        XCTAssertEqual(values, Array(0..<2_000))
        XCTAssertEqual(anomalies.recorded, [])
    }

    func testObserveOnSerialQueueDisposalStopsDelivery() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on-dispose")
        let subject = PublishSubject<Int>()
        let received = LockedValues()
        let delivered = expectation(description: "first element delivered")
        let subscription = subject.observe(on: scheduler).subscribe(onNext: { value in
            received.append(value)
            if value == 1 { delivered.fulfill() }
        })
        subject.onNext(1)
        wait(for: [delivered], timeout: 5)
        subscription.dispose()
        subject.onNext(2)
        let drained = expectation(description: "queue drained")
        _ = scheduler.schedule(()) { _ in
            drained.fulfill()
            return Disposables.create()
        }
        wait(for: [drained], timeout: 5)
        XCTAssertEqual(received.values, [1])
    }
}

/// Values appended from a dispatch queue and read by the test.
final class LockedValues: @unchecked Sendable { // `lock` guards `storage`
    private let lock = NSLock()
    private var storage: [Int] = []

    func append(_ value: Int) {
        lock.lock()
        storage.append(value)
        lock.unlock()
    }

    var values: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
