import Foundation
import RxSwift
import XCTest

final class ConcurrencyTests: RxTestCase {
    func testPublishSubjectSubscribeDisposeFromManyThreadsWhileSending() {
        let subject = PublishSubject<Int>()
        let box = UncheckedBox(subject)
        let received = OrderRecorder()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in 0..<500 {
                if worker == 0 {
                    box.value.onNext(index)
                } else {
                    let subscription = box.value.subscribe(onNext: { received.append($0) })
                    subscription.dispose()
                }
            }
        }
        XCTAssertFalse(subject.hasObservers)
    }

    func testSerialDisposableFromManyThreadsDisposesEveryValue() {
        let serial = SerialDisposable()
        let disposed = OrderRecorder()
        let box = UncheckedBox(serial)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in 0..<250 {
                box.value.disposable = Disposables.create { disposed.append(worker * 1000 + index) }
            }
        }
        serial.dispose()
        XCTAssertEqual(disposed.values.count, 1000)
        XCTAssertEqual(Set(disposed.values).count, 1000)
    }

    func testCompositeDisposableConcurrentInsertAndDispose() {
        let composite = CompositeDisposable()
        let disposed = OrderRecorder()
        let box = UncheckedBox(composite)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in 0..<250 {
                if worker == 3 && index == 100 { box.value.dispose() }
                _ = box.value.insert(Disposables.create { disposed.append(worker * 1000 + index) })
            }
        }
        composite.dispose()
        XCTAssertEqual(disposed.values.count, 1000, "every disposable is disposed exactly once, before or after the group")
    }

    /// RxSwift's own suite sends two threads' events to one subject on purpose
    /// (`testObserveOn_EnsureTestsAreExecutedWithRealConcurrentScheduler`): by default an
    /// anomaly is a warning, as in RxSwift built without FATAL_SYNCHRONIZATION, not a stop.
    /// (The test fails by stopping the process, as the default handler did on concurrent access.)
    func testDefaultAnomalyHandlerWarnsAndGoesOn() {
        Hooks.synchronizationAnomalyHandler(.concurrentAccess)
        Hooks.synchronizationAnomalyHandler(.reentrancy)
    }

    func testConcurrentEventsToOneObserverAreReportedInDebugBuilds() {
        #if DEBUG
        let anomalies = AnomalyRecorder()
        let previous = Hooks.synchronizationAnomalyHandler
        Hooks.synchronizationAnomalyHandler = { anomalies.record($0) }
        defer { Hooks.synchronizationAnomalyHandler = previous }

        final class ObserverHolder: @unchecked Sendable { // written once before the other thread starts
            var observer: AnyObserver<Int>?
        }
        let holder = ObserverHolder()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let subscription = Observable<Int>.create { observer in
            holder.observer = observer
            return Disposables.create()
        }.subscribe(onNext: { value in
            // The other thread stays inside delivery of 0 until this thread has sent 1.
            if value == 0 {
                entered.signal()
                _ = release.wait(timeout: .now() + 10)
            }
        })
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            holder.observer?.onNext(0)
            finished.signal()
        }
        XCTAssertEqual(entered.wait(timeout: .now() + 10), .success)
        holder.observer?.onNext(1)
        release.signal()
        XCTAssertEqual(finished.wait(timeout: .now() + 10), .success)
        subscription.dispose()
        XCTAssertTrue(anomalies.recorded.contains(.concurrentAccess))
        #endif
    }

    func testDispatchSchedulerSubscriptionsReleaseResources() throws {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let done = expectation(description: "all delivered")
        done.expectedFulfillmentCount = 20
        var subscriptions: [Disposable] = []
        for index in 0..<20 {
            subscriptions.append(Observable.just(index).delay(.milliseconds(5), scheduler: scheduler).subscribe(onCompleted: { done.fulfill() }))
        }
        wait(for: [done], timeout: 5)
        subscriptions.forEach { $0.dispose() }
    }
}
