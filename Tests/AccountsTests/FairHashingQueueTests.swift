import Dispatch
import Foundation
import RxBlocking
import RxSwift
import XCTest
import Accounts

/// The worker pool bounds keyed work and serves the keys fairly; a flood of wrong passwords
/// from many addresses does not delay a user from another address.
final class FairHashingQueueTests: XCTestCase {
    func testOneKeyMayFillFreePlacesAndANewcomerDisplacesTheBusiestKey() {
        let (pool, gate) = heldPool(maxQueued: 4)
        defer { pool.shutdown() }
        let log = EventLog()
        func submit(_ key: String, _ label: String) -> Bool {
            pool.schedule(key: key, onShed: { log.append("shed \(label)") }) { log.append("ran \(label)") } != nil
        }
        XCTAssertTrue(submit("a", "a1"))
        XCTAssertTrue(submit("a", "a2"))
        XCTAssertTrue(submit("a", "a3"), "one address (a NAT) may take every free place")
        XCTAssertTrue(submit("b", "b1"))
        XCTAssertTrue(submit("c", "c1"), "a newcomer takes the place of the busiest key's last item")
        XCTAssertTrue(submit("d", "d1"))
        XCTAssertEqual(log.all, ["shed a3", "shed a2"])
        XCTAssertFalse(submit("e", "e1"), "no key is ahead of the newcomer any more: refused at once")

        gate.signal()
        let deadline = Date().addingTimeInterval(10)
        while log.all.count < 6, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        XCTAssertEqual(log.all, ["shed a3", "shed a2", "ran a1", "ran b1", "ran c1", "ran d1"])
    }

    func testCancelledWorkGivesItsPlaceBack() {
        let (pool, gate) = heldPool(maxQueued: 2)
        defer { pool.shutdown() }
        let log = EventLog()
        func submit(_ label: String) -> Disposable? {
            pool.schedule(key: "a", onShed: { log.append("shed \(label)") }) { log.append("ran \(label)") }
        }
        // Taps that newer taps replaced: their requests are disposed while they wait.
        submit("a1")?.dispose()
        submit("a2")?.dispose()
        XCTAssertNotNil(submit("a3"), "disposed work holds no place")
        XCTAssertNotNil(submit("a4"))
        XCTAssertNil(submit("a5"), "the bound still holds")

        gate.signal()
        let deadline = Date().addingTimeInterval(10)
        while log.all.count < 2, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        XCTAssertEqual(log.all, ["ran a3", "ran a4"])
    }

    /// A one-thread pool whose thread waits for `gate` before it takes any keyed work.
    private func heldPool(maxQueued: Int) -> (WorkerPool, DispatchSemaphore) {
        let pool = WorkerPool(threads: 1, name: "test.fair", maxQueued: maxQueued)
        let gate = DispatchSemaphore(value: 0)
        _ = pool.schedule(()) { _ in gate.wait(); return Disposables.create() }
        return (pool, gate)
    }

    /// Judged by the hashes the pool started while the login waited, not by wall time (which a
    /// loaded machine stretches): a fair queue runs the login next, so only the other thread
    /// starts work meanwhile, about one hash per hash of the login's; a queue in arrival order
    /// would start every item already waiting first (up to `maxQueued`, 32 here).
    func testALegitimateLoginWaitsOnlyForTheHashingAlreadyRunningWhileAHundredAddressesHammer() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rxlive-flood-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CredentialStore(database: SQLiteDatabase(path: folder.appendingPathComponent("a.sqlite").path),
                                    hasher: try PasswordHasher(parameters: testParameters))
        _ = try store.addAccount("ada", password: "engine")
        let workers = WorkerPool(threads: 2, name: "test.flood")
        defer { workers.shutdown() }
        let home = HomeQueue()
        @Sendable func service(_ address: String) -> StoreLoginService {
            StoreLoginService(store: store, workers: workers, clientAddress: address, homeScheduler: { home.scheduler })
        }

        // A hundred addresses, each with many wrong guesses in flight, and more coming meanwhile.
        let flood = CompositeDisposable()
        defer { flood.dispose() }
        let stop = Stop()
        for round in 0..<10 {
            for address in 0..<100 {
                _ = flood.insert(service("203.0.113.\(address)").login(username: "guess\(round)-\(address)", password: "x").subscribe(onError: { _ in }))
            }
        }
        let attacker = Thread {
            var round = 10
            while !stop.isSet {
                for address in 0..<100 {
                    // Each request ends by itself once answered or shed.
                    _ = service("203.0.113.\(address)").login(username: "guess\(round)-\(address)", password: "x").subscribe(onError: { _ in })
                }
                round += 1
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        attacker.start()
        defer { stop.set() }
        Thread.sleep(forTimeInterval: 0.2)

        // More waiting than the bound below lets start: a queue in arrival order would fail it.
        XCTAssertGreaterThan(workers.queuedCount, 4 * workers.threadCount, "the flood keeps the queue filled")
        let startedBefore = workers.startedCount
        let answer = try service("198.51.100.7").login(username: "ada", password: "engine").toBlocking(timeout: 30).toArray()
        let startedMeanwhile = workers.startedCount - startedBefore
        XCTAssertEqual(answer, [true])
        XCTAssertLessThanOrEqual(startedMeanwhile, 4 * workers.threadCount,
                                 "the pool started \(startedMeanwhile) items while the login waited behind the flood")
        XCTAssertLessThanOrEqual(workers.queuedCount, workers.maxQueued, "the queue stayed bounded")
    }
}

/// A flag set once from the test's thread, read from another.
private final class Stop: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
