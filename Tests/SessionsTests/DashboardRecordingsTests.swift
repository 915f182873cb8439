import Foundation
import RxLiveForms
import XCTest
@testable import Sessions

/// The dashboard's Record control: only new sessions of the armed view model are recorded,
/// and a recording is handed out only while it is known and small enough.
final class DashboardRecordingsTests: XCTestCase {
    private let sum = FormsCatalog.viewModels().first { $0.name == "sum" }!

    private func openSession(_ registry: SessionRegistry) -> Session {
        let endpoint = SessionEndpoint(wire: sum, configuration: SessionConfiguration(), metrics: SessionMetrics(viewModels: ["sum"]),
                                       registry: registry, logger: .quiet)
        let session = Session(endpoint: endpoint, transport: FakeTransport())
        session.open()
        return session
    }

    func testOnlySessionsOpenedWhileArmedAreRecordedAndALiveOnesLinesAreHandedOut() throws {
        let registry = SessionRegistry()
        let recordings = registry.recordings
        let before = openSession(registry)
        try recordings.arm("sum")
        let folder = try XCTUnwrap(recordings.recorder(for: "sum")).directory
        defer { try? FileManager.default.removeItem(atPath: folder) }
        XCTAssertNil(recordings.recorder(for: "login"))
        let recorded = openSession(registry)
        recorded.receive(#"{"input":"number1","value":"4"}"#)
        try recordings.arm("")
        let after = openSession(registry)
        defer { [before, recorded, after].forEach { $0.close() } }

        let (name, text) = try recordings.contents(of: recorded.id)
        XCTAssertTrue(name.hasSuffix("-sum-\(recorded.id).rxlive.jsonl"), name)
        XCTAssertEqual(text.split(separator: "\n").count, 2, text)  // the header and the input, before the session closed
        XCTAssertTrue(text.contains(#""input":"number1","value":"4"}"#), text)
        // The same id with a leading zero is the same session.
        XCTAssertNoThrow(try recordings.contents(of: "0" + recorded.id))
        for other in [before, after] {
            XCTAssertThrowsError(try recordings.contents(of: other.id)) { error in
                XCTAssertEqual("\(error)", "session \(other.id) was not recorded: press Record before its session opens")
            }
        }
        XCTAssertThrowsError(try recordings.contents(of: "not hex"))
    }

    func testAnUnknownViewModelIsRefusedAndNothingIsArmed() {
        let recordings = DashboardRecordings()
        recordings.allow(["sum", "login"])
        XCTAssertThrowsError(try recordings.arm("dashboard")) { error in
            XCTAssertEqual("\(error)", #"this server records no view model named "dashboard""#)
        }
        XCTAssertNil(recordings.armed)
        XCTAssertNil(recordings.recorder(for: "dashboard"))
    }

    func testARecordingOverTheDownloadBoundIsRefusedWithItsPath() throws {
        let registry = SessionRegistry()
        try registry.recordings.arm("sum")
        let folder = try XCTUnwrap(registry.recordings.recorder(for: "sum")).directory
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = openSession(registry)
        defer { session.close() }
        let (name, _) = try registry.recordings.contents(of: session.id)
        let path = folder + "/" + name
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(DashboardRecordings.maxDownload + 1))
        try handle.close()
        XCTAssertThrowsError(try registry.recordings.contents(of: session.id)) { error in
            XCTAssertTrue("\(error)".hasPrefix("the recording of session \(session.id) holds 16 MiB, over the 16 MiB a dashboard hands out: take it from "),
                          "\(error)")
        }
    }
}
