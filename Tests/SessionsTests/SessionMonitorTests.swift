import RxSwift
import RxTest
import ViewModels
import XCTest
@testable import Sessions

/// The dashboard's sources: the watch of a live session (registry + the session's tap), the
/// admin-token check, the latency histogram and the stats sampler.
final class SessionMonitorTests: XCTestCase {
    private var transport: FakeTransport!
    private var metrics: SessionMetrics!
    private var registry: SessionRegistry!

    override func setUp() {
        transport = FakeTransport()
        metrics = SessionMetrics(viewModels: ["login", "sum"])
        registry = SessionRegistry()
    }

    private func endpoint(_ name: String, configuration: SessionConfiguration = SessionConfiguration()) -> SessionEndpoint {
        let wire = servedWire(name)
        return SessionEndpoint(wire: wire, configuration: configuration, metrics: metrics, registry: registry, logger: .quiet)
    }

    private func open(_ name: String) -> Session {
        let session = Session(endpoint: endpoint(name), transport: transport)
        session.open()
        return session
    }

    /// Records every watch event of `id` until disposed.
    private func watch(_ id: String) -> (events: () -> [SessionWatchEvent], subscription: Disposable) {
        var events: [SessionWatchEvent] = []
        let subscription = registry.watch(id).subscribe(onNext: { events.append($0) })
        return ({ events }, subscription)
    }

    private func shown(_ events: [SessionWatchEvent]) -> [String] {
        events.compactMap { event in
            guard case .marble(let marble) = event else { return nil }
            return "\(marble.lane) \(marble.kind.rawValue) \(marble.label ?? "-") \(marble.length.map(String.init) ?? "-")"
        }
    }

    /// The registry lists sessions by index, the last moving into a closed one's place: each
    /// session is still found by id and removed once, and the newest come first.
    func testTheRegistryFindsAndRemovesSessionsMovedByAClose() {
        let sessions = (0..<4).map { _ in open("sum") }
        XCTAssertEqual(registry.count, 4)
        XCTAssertEqual(registry.newest(10, now: 0).map(\.id), sessions.reversed().map(\.id), "newest first")
        sessions[1].close()  // the last takes its place
        sessions[1].close()
        XCTAssertEqual(registry.count, 3)
        XCTAssertEqual(Set(registry.newest(10, now: 0).map(\.id)), Set([0, 2, 3].map { sessions[$0].id }))
        for index in [0, 2, 3] {
            let watched = watch(sessions[index].id)
            XCTAssertEqual(watched.events().first, .watching(session: sessions[index].id, viewModel: "sum", lanes: sessions[index].lanes))
            watched.subscription.dispose()
        }
        let gone = watch(sessions[1].id)
        XCTAssertEqual(gone.events(), [.notFound(session: sessions[1].id)])
        gone.subscription.dispose()
        sessions[3].close()  // moved before; now removed from its new place
        sessions[0].close()
        XCTAssertEqual(registry.newest(10, now: 0).map(\.id), [sessions[2].id])
        sessions[2].close()
        XCTAssertEqual(registry.count, 0)
    }

    /// The dashboard's newest sessions, picked in one pass: the same as sorting every open
    /// session by opening time, whatever order the list holds them in after closes moved them.
    func testTheNewestAreTheLatestOpenedOfTheLiveSessions() {
        let clock = ManualClock()
        let endpoint = SessionEndpoint(wire: servedWire("sum"), configuration: SessionConfiguration(), metrics: metrics,
                                       registry: registry, logger: .quiet, clock: { clock.nanoseconds })
        var generator = SystemRandomNumberGenerator()
        let seconds = Array(1 ... 300).shuffled(using: &generator)
        var sessions: [(session: Session, openedAt: UInt64)] = []
        for second in seconds {
            clock.nanoseconds = UInt64(second) * 1_000_000_000
            let session = Session(endpoint: endpoint, transport: transport)
            session.open()
            sessions.append((session, clock.nanoseconds))
        }
        for index in sessions.indices where index % 3 == 0 { sessions[index].session.close() }
        let now: UInt64 = 400_000_000_000
        let live = sessions.enumerated().filter { $0.offset % 3 != 0 }.map(\.element)
        let expected = live.sorted { $0.openedAt > $1.openedAt }.prefix(20)
        let newest = registry.newest(20, now: now)
        XCTAssertEqual(newest.map(\.id), expected.map(\.session.id))
        XCTAssertEqual(newest.map(\.ageSeconds), expected.map { Int((now - $0.openedAt) / 1_000_000_000) })
        XCTAssertEqual(registry.newest(500, now: now).count, live.count)
        XCTAssertEqual(registry.newest(0, now: now).count, 0)
        for entry in live { entry.session.close() }
        XCTAssertEqual(registry.newest(20, now: now).count, 0)
    }

    func testAWatchShowsLanesThenInputsAndOutputsInOrderAndEndsWithTheSession() {
        let start = Resources.total
        do {
            let session = open("sum")
            XCTAssertEqual(registry.count, 1)
            session.receive(textMessage("number1", "1"))  // before anyone watches: not recorded
            XCTAssertFalse(session.trace.isObserved)
            let watched = watch(session.id)
            XCTAssertTrue(session.trace.isObserved)
            session.receive(textMessage("number2", "2"))
            session.receive(textMessage("number3", "9223372036854775807"))
            session.receive(textMessage("number1", "9223372036854775807"))
            session.receive(textMessage("number4", "1"))  // refused: no marble
            session.close()
            XCTAssertEqual(registry.count, 0)
            let events = watched.events()
            XCTAssertEqual(events.first, .watching(session: session.id, viewModel: "sum", lanes: [
                MarbleLane(name: "number1", role: .input, shape: .value), MarbleLane(name: "number2", role: .input, shape: .value),
                MarbleLane(name: "number3", role: .input, shape: .value), MarbleLane(name: "sum", role: .output, shape: .value),
            ]))
            XCTAssertEqual(shown(events), [
                "number2 next 2 -",
                "number3 next 9223372036854775807 -", "sum next 9223372036854775810 -",
                "number1 next 9223372036854775807 -", "sum next 18446744073709551616 -",
                "number1 completed - -", "number2 completed - -", "number3 completed - -", "sum completed - -",
            ])
            XCTAssertEqual(events.last, .ended(session: session.id))
            let times = events.compactMap { event -> UInt64? in
                if case .marble(let marble) = event { return marble.timeMicroseconds }
                return nil
            }
            XCTAssertEqual(times, times.sorted())
            watched.subscription.dispose()
            XCTAssertFalse(session.trace.isObserved)
        }
        // The session, its graph, its tap and the watch are all gone.
        XCTAssertEqual(Resources.total, start)
    }

    func testATraceFirstAskedForAfterTheCloseIsFinished() {
        let start = Resources.total
        do {
            // A watch that found the session just before it closed gets its tap only after:
            // the tap is made then, finished, so the watch ends rather than waiting forever.
            let session = open("sum")
            session.receive(textMessage("number1", "1"))
            session.close()
            var events: [String] = []
            let subscription = session.trace.subscribe(
                onNext: { events.append("next \($0.lane)") }, onCompleted: { events.append("completed") })
            XCTAssertEqual(events, ["completed"])
            XCTAssertFalse(session.trace.isObserved)
            subscription.dispose()
        }
        XCTAssertEqual(Resources.total, start)
    }

    func testAPasswordLaneShowsLengthsOnlyAndTapsNoValue() {
        let session = open("login")
        let watched = watch(session.id)
        session.receive(textMessage("username", "ada"))
        session.receive(textMessage("password", "pässwörd"))
        session.receive(tapMessage("loginTapped"))
        let marbles = shown(watched.events())
        XCTAssertEqual(Array(marbles.prefix(4)), [
            "username next ada -",
            "password next - 8",
            "isLoginButtonEnabled next true -",
            "loginTapped next - -",
        ])
        XCTAssertFalse(watched.events().description.contains("pässwörd"))
        watched.subscription.dispose()
        session.close()
    }

    func testAViewerGetsABoundedRateOfMarblesAndIsToldHowManyWereLeftOut() {
        let clock = ManualClock()
        registry = SessionRegistry(marbleLimit: RateLimit(perSecond: 1, burst: 2), clock: { clock.nanoseconds })
        let session = open("sum")
        let watched = watch(session.id)
        for (field, value) in [("number1", "1"), ("number2", "2"), ("number3", "3")] {
            session.receive(textMessage(field, value))  // 4 marbles: the three inputs and a sum
        }
        clock.advance(milliseconds: 1000)  // one more marble's worth
        session.receive(textMessage("number1", "5"))  // 2 marbles
        session.close()  // completions always show
        let marbles = watched.events().compactMap { event -> String? in
            guard case .marble(let marble) = event else { return nil }
            return "\(marble.lane) \(marble.kind.rawValue) \(marble.label ?? "-") skipped \(marble.skippedBefore)"
        }
        XCTAssertEqual(marbles, [
            "number1 next 1 skipped 0", "number2 next 2 skipped 0",
            "number1 next 5 skipped 2",  // number3 and the first sum were left out
            "number1 completed - skipped 1", "number2 completed - skipped 0",  // the second sum was left out
            "number3 completed - skipped 0", "sum completed - skipped 0",
        ])
        watched.subscription.dispose()
    }

    func testMessagesAreTimedOnlyWhileSomeoneTakesSnapshots() {
        let scheduler = TestScheduler(initialClock: 0)
        let monitor = SessionMonitor(metrics: metrics, registry: registry, interval: .seconds(1), scheduler: scheduler)
        XCTAssertFalse(metrics.isTimingLatency)
        let first = monitor.stats.subscribe(onNext: { _ in })
        let second = monitor.stats.subscribe(onNext: { _ in })
        XCTAssertTrue(metrics.isTimingLatency)
        first.dispose()
        XCTAssertTrue(metrics.isTimingLatency, "another dashboard still watches")
        second.dispose()
        XCTAssertFalse(metrics.isTimingLatency)
    }

    func testUnknownAndClosedIdsAreNotFound() {
        let session = open("sum")
        let id = session.id
        XCTAssertEqual(watch("not hex").events(), [.notFound(session: "not hex")])
        XCTAssertEqual(watch("0").events(), [.notFound(session: "0")])
        session.close()
        XCTAssertEqual(watch(id).events(), [.notFound(session: id)])
    }

    func testTheDashboardNeedsTheAdminTokenInTheQuery() {
        var configuration = SessionConfiguration()
        configuration.adminToken = "0123456789abcdef"
        let dashboard = endpoint("dashboard", configuration: configuration)
        XCTAssertTrue(dashboard.admits(query: "token=0123456789abcdef"))
        XCTAssertTrue(dashboard.admits(query: "a=1&token=0123456789abcdef"))
        for query in [nil, "", "token=", "token=0123456789abcdeF", "token=0123456789abcdef0", "xtoken=0123456789abcdef"] {
            XCTAssertFalse(dashboard.admits(query: query), "\(query ?? "nil")")
        }
        XCTAssertFalse(endpoint("dashboard").admits(query: "token="), "no admin token: nobody")
        XCTAssertTrue(endpoint("sum").admits(query: nil), "the forms are open to everyone")
    }

    func testHistogramBucketsBoundTheirDurationsAndPercentilesLandInTheRightBucket() {
        for nanoseconds: UInt64 in [0, 1, 3, 4, 5, 7, 8, 100, 1_000, 123_456, 1 << 40, UInt64.max] {
            let bucket = LatencyHistogram.bucket(of: nanoseconds)
            XCTAssertTrue(LatencyHistogram.bounds(of: bucket).contains(nanoseconds), "\(nanoseconds) in bucket \(bucket)")
            XCTAssertLessThan(bucket, LatencyHistogram.bucketCount)
        }
        var histogram = LatencyHistogram()
        XCTAssertNil(histogram.percentile(50))
        for _ in 0..<98 { histogram.record(nanoseconds: 10_000) }
        histogram.record(nanoseconds: 1_000_000)
        histogram.record(nanoseconds: 2_000_000)
        let p50 = histogram.percentile(50)!, p99 = histogram.percentile(99)!, p100 = histogram.percentile(100)!
        XCTAssertTrue((8_192...12_288).contains(p50), "\(p50)")
        XCTAssertTrue((786_432...1_048_576).contains(p99), "\(p99)")
        XCTAssertTrue((1_572_864...2_097_152).contains(p100), "\(p100)")
    }

    func testTheSamplerCountsSessionsPerViewModelRatesAndLatencyPerLoop() {
        let clock = ManualClock()
        let sampler = StatsSampler(metrics: metrics, registry: registry, clock: { clock.nanoseconds })
        metrics.startTimingLatency()  // as the dashboard's snapshots do while they run
        let sum = open("sum")
        let login = open("login")
        for value in ["1", "2", "3"] { sum.receive(textMessage("number\(value)", value)) }
        clock.advance(milliseconds: 2000)
        let stats = sampler.sample()
        XCTAssertEqual(stats.sessions, [.init(name: "login", open: 1), .init(name: "sum", open: 1)])
        // 3 messages in, 3 out (2 ready + 1 sum) over 2 s: 1.5 rounds to 2.
        XCTAssertEqual(stats.messagesInPerSecond, 2)
        XCTAssertEqual(stats.messagesOutPerSecond, 2)
        XCTAssertEqual(stats.loops.map(\.index), [0])
        XCTAssertEqual(stats.loops[0].sessionsOpen, 2)
        XCTAssertNotNil(stats.latencyP50Microseconds)
        XCTAssertEqual(Set(stats.recentSessions.map(\.id)), [sum.id, login.id])
        XCTAssertEqual(stats.recentSessions.first?.id, login.id, "newest first")
        clock.advance(milliseconds: 1000)
        let quiet = sampler.sample()
        XCTAssertEqual(quiet.messagesInPerSecond, 0)
        XCTAssertNil(quiet.latencyP50Microseconds, "no messages since the last snapshot")
        metrics.stopTimingLatency()
        sum.receive(textMessage("number1", "7"))
        clock.advance(milliseconds: 1000)
        let untimed = sampler.sample()
        XCTAssertEqual(untimed.messagesInPerSecond, 1)
        XCTAssertNil(untimed.latencyP50Microseconds, "nobody takes snapshots: messages are not timed")
        login.close()
        sum.close()
        XCTAssertEqual(sampler.sample().sessions.map(\.open), [0, 0])
    }
}
