import RxSwift
import RxTest
@testable import Sessions
import XCTest

final class DashboardViewModelTests: XCTestCase {
    private func stats(_ uptime: Double) -> ServerStats {
        ServerStats(uptimeSeconds: uptime, sessions: [], messagesInPerSecond: 0, messagesOutPerSecond: 0,
                    latencyP50Microseconds: nil, latencyP99Microseconds: nil, rxResources: 0, loops: [], recentSessions: [])
    }

    private func marble(_ lane: String, _ time: UInt64) -> SessionWatchEvent {
        .marble(Marble(lane: lane, kind: .next, label: lane, timeMicroseconds: time))
    }

    func testEachNewIdSwitchesTheWatchAndEmptyStopsIt() {
        let start = Resources.total
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let statsSource = scheduler.createHotObservable([.next(205, stats(1)), .next(305, stats(2))])
            let a = scheduler.createColdObservable([.next(0, marble("a", 1)), .next(30, marble("a", 2)), .next(100, marble("a", 3))])
            let b = scheduler.createColdObservable([.next(5, marble("b", 1)), .completed(20)])
            let ids = scheduler.createHotObservable([
                .next(210, "a"), .next(220, " a "), .next(260, "b"), .next(290, ""), .next(300, "zz"),
            ])
            let viewModel = DashboardViewModel(stats: statsSource.asObservable()) { id in
                switch id {
                case "a": a.asObservable()
                case "b": b.asObservable()
                default: Observable.just(.notFound(session: id))
                }
            }
            let output = viewModel.transform(input: .init(watchSession: ids.asObservable()))
            let watch = scheduler.createObserver(SessionWatchEvent.self)
            let statsSeen = scheduler.createObserver(ServerStats.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) {
                subscriptions = [output.watch.subscribe(watch), output.stats.subscribe(statsSeen)]
            }
            scheduler.start()
            // A cold source's event at 0 comes at the subscription's own time (RxTest schedules
            // cold events with `scheduleRelativeVirtual`, which does not adjust).
            XCTAssertEqual(watch.events, [
                .next(210, marble("a", 1)), .next(240, marble("a", 2)),  // " a " is "a" again: no resubscription
                .next(265, marble("b", 1)),  // b replaced a; a's third marble (at 310) never comes
                .next(290, .stopped), .next(300, .notFound(session: "zz")),
            ])
            XCTAssertEqual(a.subscriptions, [Subscription(210, 260)])
            XCTAssertEqual(b.subscriptions, [Subscription(260, 280)])
            XCTAssertEqual(statsSeen.events, [.next(205, stats(1)), .next(305, stats(2))])
            subscriptions.forEach { $0.dispose() }
        }
        XCTAssertEqual(Resources.total, start)
    }

    func testRecordSaysTheStateAtOnceThenAfterEachRequestAndFilesComeOneAtATimeInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        var armed: String?
        let viewModel = DashboardViewModel(
            stats: .never(),
            record: { name in
                if let name { armed = name.isEmpty ? nil : name }
                return RecordingControl(viewModel: armed)
            },
            download: { id, kind in
                // The test takes 30 ticks, the recording 5: the recording asked later still comes after it.
                Observable.just(DashboardDownload.file(session: id, kind: kind, name: "\(kind)", text: id))
                    .delay(.seconds(kind == .test ? 30 : 5), scheduler: scheduler)
            },
            watchSession: { _ in .never() })
        let output = viewModel.transform(input: .init(
            watchSession: .never(),
            record: scheduler.createHotObservable([.next(210, " sum "), .next(250, "")]).asObservable(),
            exportTest: scheduler.createHotObservable([.next(220, " 5a ")]).asObservable(),
            downloadRecording: scheduler.createHotObservable([.next(225, "6b")]).asObservable()))
        let recording = scheduler.createObserver(RecordingControl.self)
        let files = scheduler.createObserver(DashboardDownload.self)
        let subscriptions = [output.recording.subscribe(recording), output.download.subscribe(files)]
        scheduler.start()
        XCTAssertEqual(recording.events, [
            .next(0, RecordingControl(viewModel: nil)), .next(210, RecordingControl(viewModel: "sum")),
            .next(250, RecordingControl(viewModel: nil)),
        ])
        XCTAssertEqual(files.events, [
            .next(250, .file(session: "5a", kind: .test, name: "test", text: "5a")),
            // Asked for at 225, made only once the test's completed (251, a tick after its element): 5 ticks later.
            .next(256, .file(session: "6b", kind: .recording, name: "recording", text: "6b")),
        ])
        subscriptions.forEach { $0.dispose() }
    }
}
