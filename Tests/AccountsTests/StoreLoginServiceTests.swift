import Dispatch
import Foundation
import RxSwift
import RxBlocking
import XCTest
import Accounts

/// The login service end to end below the session: real worker threads, a real SQLite
/// file, answers delivered on the subscriber's scheduler.
final class StoreLoginServiceTests: XCTestCase {
    private var folder: URL!
    private var workers: WorkerPool!

    private var resourcesAtSetUp: Int32 = 0

    override func setUpWithError() throws {
        resourcesAtSetUp = Resources.total
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rxlive-login-\(UUID().uuidString)")
        workers = WorkerPool(threads: 2, name: "test.workers")
    }

    override func tearDownWithError() throws {
        workers.shutdown()
        // Every test leaves nothing behind, and the next one starts from a settled count.
        assertResources(returnTo: resourcesAtSetUp)
        try? FileManager.default.removeItem(at: folder)
    }

    private func makeStore(path: String? = nil) throws -> CredentialStore {
        let database = SQLiteDatabase(path: path ?? folder.appendingPathComponent("accounts.sqlite").path)
        return CredentialStore(database: database, hasher: try PasswordHasher(parameters: testParameters))
    }

    private func service(_ store: CredentialStore, home: HomeQueue) -> StoreLoginService {
        StoreLoginService(store: store, workers: workers, clientAddress: "127.0.0.1", homeScheduler: { home.scheduler })
    }

    func testTheAnswerComesFromTheStoreOnTheHomeScheduler() throws {
        let start = Resources.total
        let store = try makeStore()
        _ = try store.addAccount("ada", password: "engine")
        let home = HomeQueue()
        do {
            let right = try service(store, home: home).login(username: "ada", password: "engine").toBlocking(timeout: 30).toArray()
            let wrong = try service(store, home: home).login(username: "ada", password: "nope").toBlocking(timeout: 30).toArray()
            XCTAssertEqual(right, [true])
            XCTAssertEqual(wrong, [false])
            XCTAssertEqual(home.deliveries, 2, "each answer was scheduled on the home scheduler")
            XCTAssertFalse(home.deliveredOffHome, "every answer ran on the home queue")
        }
        assertResources(returnTo: start)
    }

    func testAThrottledAttemptFailsWithItsWait() throws {
        let store = try makeStore()
        let home = HomeQueue()
        for _ in 1...3 {
            XCTAssertEqual(try service(store, home: home).login(username: "ada", password: "x").toBlocking(timeout: 30).toArray(), [false])
        }
        XCTAssertThrowsError(try service(store, home: home).login(username: "ada", password: "x").toBlocking(timeout: 30).toArray()) { error in
            guard case .rateLimited(let wait)? = error as? LoginCheckError else { return XCTFail("\(error)") }
            XCTAssertGreaterThan(wait, 0)
            XCTAssertLessThanOrEqual(wait, 2)
        }
    }

    func testADatabaseThatCannotBeOpenedFailsAsUnavailable() throws {
        let store = try makeStore(path: "/dev/null/accounts.sqlite")
        XCTAssertThrowsError(try service(store, home: HomeQueue()).login(username: "ada", password: "x").toBlocking(timeout: 30).toArray()) { error in
            XCTAssertEqual(error as? LoginCheckError, .unavailable)
        }
    }

    func testARequestDisposedBeforeItRunsIsNeverChecked() throws {
        let start = Resources.total
        let store = try makeStore()
        let home = HomeQueue()
        // Both workers wait on a gate, so the request queues behind them.
        let gate = DispatchSemaphore(value: 0)
        for _ in 0..<2 { _ = workers.schedule(()) { _ in gate.wait(); return Disposables.create() } }
        let events = EventLog()
        let subscription = service(store, home: home).login(username: "ada", password: "x")
            .subscribe(onNext: { events.append("next \($0)") }, onError: { events.append("error \($0)") })
        subscription.dispose()
        gate.signal()
        gate.signal()
        // Three failures after it are all free: the disposed attempt was never counted.
        for _ in 1...3 {
            XCTAssertEqual(try service(store, home: home).login(username: "ada", password: "x").toBlocking(timeout: 30).toArray(), [false])
        }
        XCTAssertEqual(events.all, [], "nothing reaches a disposed request")
        assertResources(returnTo: start)
    }

    /// The worker and home threads let go of a request's last references just after its
    /// answer is seen, so the count is awaited (bounded) rather than read once.
    private func assertResources(returnTo start: Int32, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(10)
        while Resources.total != start, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(Resources.total, start, file: file, line: line)
    }

    func testWorkerPoolRunsAtMostItsThreadsAtOnce() {
        let running = EventLog()
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<8 {
            _ = workers.schedule(()) { _ in
                running.enter()
                Thread.sleep(forTimeInterval: 0.02)
                running.leave()
                finished.signal()
                return Disposables.create()
            }
        }
        for _ in 0..<8 { XCTAssertEqual(finished.wait(timeout: .now() + 30), .success) }
        XCTAssertEqual(running.peak, 2)
    }
}

/// A home scheduler: a serial queue that counts what is scheduled on it.
final class HomeQueue: @unchecked Sendable {  // counters guarded by `lock`
    private let queue = DispatchQueue(label: "test.home")
    private let key = DispatchSpecificKey<Bool>()
    private let lock = NSLock()
    private var count = 0
    private var offHome = false

    init() {
        queue.setSpecific(key: key, value: true)
    }

    var scheduler: any ImmediateSchedulerType { HomeScheduler(home: self) }

    var deliveries: Int { lock.withLock { count } }
    var deliveredOffHome: Bool { lock.withLock { offHome } }

    fileprivate func run(_ work: @escaping @Sendable () -> Void) {
        lock.withLock { count += 1 }
        queue.async { [self] in
            if DispatchQueue.getSpecific(key: key) != true { lock.withLock { offHome = true } }
            work()
        }
    }
}

private struct HomeScheduler: ImmediateSchedulerType {
    let home: HomeQueue

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let disposable = SingleAssignmentDisposable()
        let work = UncheckedAction { if !disposable.isDisposed { disposable.setDisposable(action(state)) } }
        home.run { work.run() }
        return disposable
    }
}

/// The scheduled action, run once on the home queue.
private struct UncheckedAction: @unchecked Sendable {
    let run: () -> Void
}

/// Events and a concurrency gauge written from several threads.
final class EventLog: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var events: [String] = []
    private var current = 0
    private(set) var peakValue = 0

    func append(_ event: String) { lock.withLock { events.append(event) } }
    var all: [String] { lock.withLock { events } }

    func enter() {
        lock.withLock {
            current += 1
            peakValue = max(peakValue, current)
        }
    }

    func leave() { lock.withLock { current -= 1 } }
    var peak: Int { lock.withLock { peakValue } }
}
