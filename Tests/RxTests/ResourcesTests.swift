import Foundation
import RxSwift
import XCTest

/// `Resources.total` is kept per thread and summed: a resource made on one thread and
/// released on another, or outliving the thread that made it, must still count once.
final class ResourcesTests: RxTestCase {
    func testSubscriptionMadeOnOneThreadAndDisposedOnAnotherCountsOnce() {
        let start = Resources.total
        nonisolated(unsafe) let subject = PublishSubject<Int>()  // used by the thread, then here after `made`
        let made = expectation(description: "subscribed on another thread")
        nonisolated(unsafe) var subscription: Disposable?  // written on the thread, read after `made`
        let thread = Thread {
            subscription = subject.map { $0 + 1 }.subscribe(onNext: { _ in })
            made.fulfill()
        }
        thread.start()
        wait(for: [made], timeout: 5)
        // Subject, map producer, its sink, the subscribe observer, the subject's subscription.
        XCTAssertGreaterThan(Resources.total, start + 1)
        subscription?.dispose()
        subscription = nil
        XCTAssertEqual(Resources.total, start + 1, "only the subject is left")
    }

    func testResourcesOutlivingTheirThreadAreCountedAfterItExits() {
        let start = Resources.total
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var subjects: [PublishSubject<Int>] = []  // written on the thread, read after it ended
        let thread = Thread {
            subjects = (0..<10).map { _ in PublishSubject<Int>() }
            finished.signal()
        }
        thread.start()
        finished.wait()
        // Give the thread time to exit and fold its count into the total.
        let deadline = Date().addingTimeInterval(2)
        while !thread.isFinished && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.001)
        }
        Thread.sleep(forTimeInterval: 0.01)
        XCTAssertEqual(Resources.total, start + 10)
        subjects.removeAll()
        XCTAssertEqual(Resources.total, start)
    }

    func testIncrementAndDecrementReturnTheNewTotal() {
        let start = Resources.total
        XCTAssertEqual(Resources.incrementTotal(), start + 1)
        XCTAssertEqual(Resources.total, start + 1)
        XCTAssertEqual(Resources.decrementTotal(), start)
    }

    func testCountsFromManyThreadsAddUp() {
        let start = Resources.total
        let kept = KeptSubjects()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            var mine: [PublishSubject<Int>] = []
            for _ in 0..<1_000 {
                mine.append(PublishSubject<Int>())
            }
            // Release half here, keep half for the main thread to release.
            mine.removeLast(500)
            kept.append(mine)
        }
        XCTAssertEqual(Resources.total, start + 4_000)
        kept.removeAll()
        XCTAssertEqual(Resources.total, start)
    }
}

/// Subjects handed from worker threads to the test. `@unchecked Sendable`: `lock` guards `subjects`.
private final class KeptSubjects: @unchecked Sendable {
    private let lock = NSLock()
    private var subjects: [PublishSubject<Int>] = []

    func append(_ more: [PublishSubject<Int>]) {
        lock.lock()
        subjects.append(contentsOf: more)
        lock.unlock()
    }

    func removeAll() {
        lock.lock()
        subjects.removeAll()
        lock.unlock()
    }
}
