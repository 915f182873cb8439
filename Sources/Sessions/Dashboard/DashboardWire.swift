import Dispatch
import RxSwift

extension WireViewModel {
    /// The server's own dashboard, `/ws/dashboard`: statistics from `monitor` and the marbles
    /// of one watched session, for a viewer with the admin token.
    static func dashboard(monitor: SessionMonitor) -> WireViewModel {
        WireViewModel(
            name: "dashboard",
            access: .adminToken,
            transform: { input in
                let recordings = monitor.registry.recordings
                let exporter = RecordingExporter()
                return DashboardViewModel(
                    stats: monitor.stats,
                    record: { name in name.map(recordings.control(arming:)) ?? RecordingControl(viewModel: recordings.armed) },
                    download: { id, kind in
                        // The export waits for its child process: off the event loop.
                        Observable.deferred { .just(recordings.download(id, kind, exporter: exporter)) }
                            .subscribe(on: ConcurrentDispatchQueueScheduler(qos: .userInitiated))
                    },
                    watchSession: monitor.registry.watch).transform(input: input)
            },
            input: { wire in
                DashboardViewModel.Input(watchSession: wire.text("watchSession"), record: wire.text("record"),
                                         exportTest: wire.text("exportTest"), downloadRecording: wire.text("downloadRecording"))
            },
            outputs: [WireOutput("stats", \.stats), WireOutput("watch", \.watch), WireOutput("recording", \.recording),
                      WireOutput("download", \.download)])
            .notRecorded()  // an administrator's view of other sessions, not an app's
    }
}
