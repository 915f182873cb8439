import Prometheus
import RxSwift
import XCTest
@testable import RxLive
@testable import Sessions

/// `/metrics` through swift-prometheus: the sessions' counters under their names, counters
/// that follow the sessions' counts however often they are read.
final class SessionMetricsExporterTests: XCTestCase {
    private func lines(_ registry: PrometheusCollectorRegistry) -> [Substring] {
        registry.emitToString().split(separator: "\n")
    }

    private func assertContains(_ lines: [Substring], _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        for wanted in expected {
            XCTAssertTrue(lines.contains(Substring(wanted)), "missing \(wanted) in\n\(lines.joined(separator: "\n"))",
                          file: file, line: line)
        }
    }

    func testTheSessionsCountersKeepTheirNamesTypesAndLabels() {
        let metrics = SessionMetrics(viewModels: ["login", "sum"], loopCount: 3)
        metrics.sessionOpened("sum", loop: 0)
        metrics.sessionOpened("login", loop: 2)
        metrics.sessionOpened("sum", loop: 2)
        metrics.sessionClosed("sum", loop: 2)
        metrics.messageReceived(loop: 0)
        metrics.messageReceived(loop: 2)
        metrics.messageSent(loop: 0)
        metrics.errorSent(loop: 2)
        let registry = PrometheusCollectorRegistry()
        let exporter = SessionMetricsExporter(metrics: metrics, registry: registry)
        exporter.update()
        assertContains(lines(registry), [
            "# TYPE rxlive_sessions_open gauge", "rxlive_sessions_open 2.0",
            "# HELP rxlive_sessions_total WebSocket sessions opened, by view model.",
            "# TYPE rxlive_sessions_total counter",
            #"rxlive_sessions_total{view_model="login"} 1"#, #"rxlive_sessions_total{view_model="sum"} 2"#,
            "rxlive_messages_received_total 2", "rxlive_messages_sent_total 1", "rxlive_errors_sent_total 1",
            "# TYPE rxlive_rx_resources gauge", "rxlive_rx_resources \(Double(Resources.total))",
            "rxlive_loops 3.0",
            #"rxlive_loop_sessions_open{loop="0"} 1.0"#, #"rxlive_loop_sessions_open{loop="1"} 0.0"#,
            #"rxlive_loop_sessions_open{loop="2"} 1.0"#,
            "# TYPE rxlive_loop_sessions_total counter", #"rxlive_loop_sessions_total{loop="2"} 2"#,
        ])
    }

    func testCountersFollowTheCountsAcrossReadsWithoutCountingTwice() {
        let metrics = SessionMetrics(viewModels: ["sum"])
        let registry = PrometheusCollectorRegistry()
        let exporter = SessionMetricsExporter(metrics: metrics, registry: registry)
        exporter.update()
        assertContains(lines(registry), ["rxlive_messages_received_total 0"])
        for _ in 0..<5 { metrics.messageReceived() }
        exporter.update()
        exporter.update()
        assertContains(lines(registry), ["rxlive_messages_received_total 5"])
        metrics.messageReceived()
        exporter.update()
        assertContains(lines(registry), ["rxlive_messages_received_total 6"])
    }
}
