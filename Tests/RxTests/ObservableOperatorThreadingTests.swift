import Foundation
import RxSwift
import RxBlocking
import XCTest

/// The operators of several sources and timers on real dispatch queues: the observer must
/// get every event once, in a valid order, and never two at a time (debug builds report
/// concurrent delivery through the anomaly hook, recorded here instead of stopping).
final class ObservableOperatorThreadingTests: RxTestCase {
    private func concurrentSource(_ values: [Int]) -> Observable<Int> {
        Observable.from(values).subscribe(on: ConcurrentDispatchQueueScheduler(qos: .userInitiated))
    }

    func testMergeOfSourcesOnConcurrentQueues() throws {
        var values: [Int] = []
        let anomalies = try recordingAnomaliesThrowing {
            let sources = (0..<4).map { index in concurrentSource(Array(index * 1_000..<(index + 1) * 1_000)) }
            values = try Observable.merge(sources).toBlocking(timeout: 10).toArray()
        }
        XCTAssertEqual(values.sorted(), Array(0..<4_000))
        XCTAssertFalse(anomalies.contains(.concurrentAccess))
    }

    func testZipOfSourcesOnConcurrentQueues() throws {
        var pairs: [[Int]] = []
        let anomalies = try recordingAnomaliesThrowing {
            pairs = try Observable.zip(concurrentSource(Array(0..<2_000)), concurrentSource(Array(0..<2_000))) { [$0, $1] }
                .toBlocking(timeout: 10).toArray()
        }
        XCTAssertEqual(pairs, (0..<2_000).map { [$0, $0] })
        XCTAssertFalse(anomalies.contains(.concurrentAccess))
    }

    func testConcatMapAndFlatMapFirstOnConcurrentQueues() throws {
        var concatenated: [Int] = []
        var firsts: [Int] = []
        let anomalies = try recordingAnomaliesThrowing {
            concatenated = try concurrentSource(Array(0..<300))
                .concatMap { value in self.concurrentSource([value, value]) }
                .toBlocking(timeout: 10).toArray()
            firsts = try concurrentSource(Array(0..<300))
                .flatMapFirst { value in self.concurrentSource([value]) }
                .toBlocking(timeout: 10).toArray()
        }
        XCTAssertEqual(concatenated, (0..<300).flatMap { [$0, $0] })
        XCTAssertFalse(firsts.isEmpty)
        XCTAssertEqual(firsts, firsts.sorted())
        XCTAssertFalse(anomalies.contains(.concurrentAccess))
    }

    func testTimeoutOnDispatchQueue() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "timeout-test")
        let result = Observable<Int>.never().timeout(.milliseconds(20), scheduler: scheduler).toBlocking(timeout: 5).materialize()
        guard case .failed(let elements, let error) = result else {
            return XCTFail("expected a timeout, got \(result)")
        }
        XCTAssertEqual(elements, [])
        XCTAssertEqual(String(describing: error), String(describing: RxError.timeout))
    }

    func testDebounceAndThrottleOnDispatchQueue() throws {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "debounce-test")
        let burst = Observable.from(Array(1...50))
        // Windows far longer than the burst, so a stalled thread on a loaded machine
        // cannot split it: completion flushes debounce's last element at once, and
        // throttle sends the first, then the latest when its window ends.
        XCTAssertEqual(try burst.debounce(.seconds(30), scheduler: scheduler).toBlocking(timeout: 5).toArray(), [50])
        XCTAssertEqual(try burst.throttle(.seconds(1), scheduler: scheduler).toBlocking(timeout: 10).toArray(), [1, 50])
        XCTAssertEqual(try burst.throttle(.seconds(10), latest: false, scheduler: scheduler).toBlocking(timeout: 5).toArray(), [1])
    }

    func testShareReplaySubscribedFromManyThreadsWhileSending() {
        let subject = PublishSubject<Int>()
        let shared = UncheckedBox(subject.share(replay: 1))
        let box = UncheckedBox(subject)
        let received = LockedValues()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in 0..<200 {
                if worker == 0 {
                    box.value.onNext(index)
                } else {
                    var last = -1
                    let subscription = shared.value.subscribe(onNext: { value in
                        // Replayed and live elements arrive in order.
                        XCTAssertGreaterThan(value, last)
                        last = value
                        received.append(value)
                    })
                    subscription.dispose()
                }
            }
        }
        XCTAssertFalse(subject.hasObservers)
        XCTAssertTrue(received.values.allSatisfy { (0..<200).contains($0) })
    }
}

/// `recordingAnomalies` for a throwing body.
private func recordingAnomaliesThrowing(_ body: () throws -> Void) throws -> [SynchronizationAnomaly] {
    var thrown: Error?
    let anomalies = recordingAnomalies {
        do { try body() } catch { thrown = error }
    }
    if let thrown { throw thrown }
    return anomalies
}
