import RxSwift

extension WireViewModel {
    /// The server's own dashboard, `/ws/dashboard`: statistics from `monitor` and the marbles
    /// of one watched session, for a viewer with the admin token.
    static func dashboard(monitor: SessionMonitor) -> WireViewModel {
        WireViewModel(
            name: "dashboard",
            access: .adminToken,
            transform: { DashboardViewModel(stats: monitor.stats, watchSession: monitor.registry.watch).transform(input: $0) },
            input: { wire in DashboardViewModel.Input(watchSession: wire.text("watchSession")) },
            outputs: [WireOutput("stats", \.stats), WireOutput("watch", \.watch)])
            .notRecorded()  // an administrator's view of other sessions, not an app's
    }
}
