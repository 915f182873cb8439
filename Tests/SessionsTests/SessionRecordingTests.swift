import Foundation
import RxSwift
import RxLiveForms
import ViewModels
import XCTest
@testable import Sessions

/// `--record`: one file per session, mode 600, the inputs and outputs with their times, a
/// secret as its length, the services' answers; opt-out and bounds.
final class SessionRecordingTests: XCTestCase {
    private var folder: String!

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "rxlive-recording-\(UUID().uuidString)"
    }

    override func tearDownWithError() throws {
        MainScheduler.resetHost()
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func recordedSession(_ wire: WireViewModel, recorder: SessionRecorder, messages: [String]) -> FakeTransport {
        var configuration = SessionConfiguration()
        configuration.recorder = recorder
        let transport = FakeTransport()
        let endpoint = SessionEndpoint(wire: wire, configuration: configuration, metrics: SessionMetrics(viewModels: [wire.name]),
                                       logger: .quiet)
        let session = Session(endpoint: endpoint, transport: transport)
        session.open()
        messages.forEach(session.receive)
        session.close()
        return transport
    }

    private func recordings() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map { folder + "/" + $0 }
    }

    func testASumSessionIsRecordedWithItsInputsAndOutputsInAFileOnlyItsOwnerReads() throws {
        let recorder = try SessionRecorder(directory: folder, maxFiles: 10, maxBytes: 1 << 20)
        _ = recordedSession(servedWire("sum"), recorder: recorder,
                            messages: [textMessage("number1", "1"), textMessage("number2", "2"), #"{"input":"number3","value":"x\"3"}"#])
        let files = try recordings()
        XCTAssertEqual(files.count, 1)
        let mode = try FileManager.default.attributesOfItem(atPath: files[0])[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        let recording = try RecordedSession(contentsOf: files[0])
        XCTAssertEqual(recording.viewModel, "sum")
        XCTAssertEqual(recording.outputs, ["sum"])
        XCTAssertEqual(recording.inputs.map(\.name), ["number1", "number2", "number3"])
        let events = recording.events.map { event -> String in
            switch event {
            case .input(_, let name, let json, _): "\(name)=\(json ?? "")"
            case .output(_, let name, let json, _): "\(name)->\(json ?? "")"
            default: "other"
            }
        }
        XCTAssertEqual(events, ["number1=\"1\"", "number2=\"2\"", "number3=\"x\\\"3\"", "sum->3"])
        XCTAssertEqual(recording.events.map(\.time), recording.events.map(\.time).sorted())
        XCTAssertNotNil(recording.duration)
    }

    func testAnOutputMadeWhileItsInputIsHandledHasTheInputsTimeAndWritesNoneOfItsOwn() throws {
        let recorder = try SessionRecorder(directory: folder, maxFiles: 10, maxBytes: 1 << 20)
        _ = recordedSession(servedWire("sum"), recorder: recorder,
                            messages: [textMessage("number1", "1"), textMessage("number2", "2"), textMessage("number3", "3"),
                                       textMessage("number1", "4")])
        let file = try XCTUnwrap(recordings().first)
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(Array(lines[4...5]), [#"{"output":"sum","value":6}"#, lines[5]])
        XCTAssert(lines[3].hasPrefix(#"{"t":"#) && lines[3].hasSuffix(#""input":"number3","value":"3"}"#), lines[3])
        XCTAssert(lines[5].hasPrefix(#"{"t":"#) && lines[5].hasSuffix(#""input":"number1","value":"4"}"#), lines[5])
        XCTAssertEqual(lines[6], #"{"output":"sum","value":9}"#)
        let events = try RecordedSession(contentsOf: file).events
        XCTAssertEqual(events[3].time, events[2].time)
        XCTAssertEqual(events[5].time, events[4].time)
    }

    func testAnOutputMadeOffTheSessionsThreadReadsItsOwnTime() throws {
        let recorder = try SessionRecorder(directory: folder, maxFiles: 10, maxBytes: 1 << 20)
        var configuration = SessionConfiguration()
        configuration.recorder = recorder
        let transport = FakeTransport()
        let wire = servedWire("sum")
        let session = Session(endpoint: SessionEndpoint(wire: wire, configuration: configuration,
                                                        metrics: SessionMetrics(viewModels: [wire.name]), logger: .quiet),
                              transport: transport)
        session.open()
        transport.isOnOwnerThread = false  // the outputs are made as if on another thread
        [textMessage("number1", "1"), textMessage("number2", "2"), textMessage("number3", "3")].forEach(session.receive)
        transport.runDeferredWork()
        session.close()
        let file = try XCTUnwrap(recordings().first)
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssert(lines[4].hasPrefix(#"{"t":"#) && lines[4].hasSuffix(#""output":"sum","value":6}"#), lines[4])
        XCTAssertEqual(transport.sent.last, #"{"output":"sum","value":6}"#)
    }

    func testASecretIsRecordedAsItsLengthAndTheServicesAnswerInstead() throws {
        let recorder = try SessionRecorder(directory: folder, maxFiles: 10, maxBytes: 1 << 20)
        var forms = FormsSettings()
        forms.loginService = { _ in ImmediateLoginService() }
        _ = recordedSession(servedWire("login", forms: forms), recorder: recorder,
                            messages: [textMessage("username", "ada"), textMessage("password", "hunter22"), tapMessage("loginTapped")])
        let text = try String(contentsOfFile: try recordings()[0], encoding: .utf8)
        XCTAssertFalse(text.contains("hunter22"))
        XCTAssertTrue(text.contains("{\"input\":\"password\",\"secret\":8}") || text.contains("\"input\":\"password\",\"secret\":8}"), text)
        let recording = try RecordedSession(jsonLines: text)
        XCTAssertTrue(recording.events.contains { if case .call(_, "login", 0) = $0 { true } else { false } }, text)
        XCTAssertTrue(recording.events.contains { if case .answer(_, "login", 0, .element("true"), true) = $0 { true } else { false } }, text)
    }

    /// The lines with their times taken out.
    private func untimedLines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst().map {
            String($0).replacing(/^\{"t":[0-9]+,/, with: "{")
        }
    }

    func testAnInputIsTheSameLineWhetherItsMessageIsCopiedOrWrittenFromTheEvent() throws {
        let recorder = try SessionRecorder(directory: folder, maxFiles: 10, maxBytes: 1 << 20)
        _ = recordedSession(servedWire("sum"), recorder: recorder, messages: [
            #"{"input":"number1","value":"1"}"#,  // plain: copied
            #"{ "input": "number2", "value": "2" }"#,  // spaced: written
            #"{"value":"3","input":"number3"}"#,  // keys the other way round: written
            #"{"input":"number1","value":"a\"b\u00e9\n\u0001"}"#,  // escapes: written, escaped as a JSON string
            #"{"input":"number1","value":"10"}"#,
        ])
        XCTAssertEqual(try untimedLines(try recordings()[0]), [
            #"{"input":"number1","value":"1"}"#,
            #"{"input":"number2","value":"2"}"#,
            #"{"input":"number3","value":"3"}"#,
            #"{"output":"sum","value":6}"#,
            #"{"input":"number1","value":"a\"bé\n\u0001"}"#,
            #"{"output":"sum","value":5}"#,  // not a number: 0
            #"{"input":"number1","value":"10"}"#,
            #"{"output":"sum","value":15}"#,
            #"{"end":"closed"}"#,
        ])
    }

    func testATapAndASecretInEveryShapeAreWrittenWithoutTheSecret() throws {
        let recorder = try SessionRecorder(directory: folder, maxFiles: 10, maxBytes: 1 << 20)
        var forms = FormsSettings()
        forms.loginService = { _ in ImmediateLoginService() }
        _ = recordedSession(servedWire("login", forms: forms), recorder: recorder, messages: [
            #"{"input":"password","value":"hunter22"}"#, #"{ "input":"password", "value":"hunter2\u0032" }"#,
            #"{"input":"loginTapped"}"#, #"{ "input" : "loginTapped" }"#,
        ])
        let path = try recordings()[0]
        XCTAssertFalse(try String(contentsOfFile: path, encoding: .utf8).contains("hunter2"))
        let lines = try untimedLines(path)
        XCTAssertEqual(lines.filter { $0.contains("\"input\"") }, [
            #"{"input":"password","secret":8}"#, #"{"input":"password","secret":8}"#,
            #"{"input":"loginTapped"}"#, #"{"input":"loginTapped"}"#,
        ])
    }

    func testAViewModelDeclaredNotRecordedLeavesNoFile() throws {
        let recorder = try SessionRecorder(directory: folder, maxFiles: 10, maxBytes: 1 << 20)
        _ = recordedSession(servedWire("sum").notRecorded(), recorder: recorder, messages: [textMessage("number1", "1")])
        XCTAssertEqual(try recordings(), [])
    }

    func testTheOldestRecordingsGoFirstBeyondTheFileCount() throws {
        let recorder = try SessionRecorder(directory: folder, maxFiles: 2, maxBytes: 1 << 20)
        var sessions: [String] = []
        for value in ["1", "2", "3"] {
            _ = recordedSession(servedWire("sum"), recorder: recorder, messages: [textMessage("number1", value)])
            sessions.append(try recordings().last.map { try RecordedSession(contentsOf: $0).session } ?? "")
            Thread.sleep(forTimeInterval: 0.002)  // names carry milliseconds
        }
        let kept = try recordings().map { try RecordedSession(contentsOf: $0).session }
        XCTAssertEqual(Set(kept), Set(sessions.suffix(2)))
    }

    func testTheOldestRecordingsGoFirstBeyondTheTotalSizeAndALongSessionIsTruncated() throws {
        let recorder = try SessionRecorder(directory: folder, maxFiles: 100, maxBytes: 4096)
        let long = String(repeating: "9", count: 1000)
        _ = recordedSession(servedWire("sum"), recorder: recorder, messages: (0..<8).map { _ in textMessage("number1", long) })
        let first = try recordings()
        XCTAssertEqual(first.count, 1)
        let recording = try RecordedSession(contentsOf: first[0])
        XCTAssertTrue(recording.truncated)
        XCTAssertLessThanOrEqual(try FileManager.default.attributesOfItem(atPath: first[0])[.size] as? Int ?? 0, 4096)
        Thread.sleep(forTimeInterval: 0.002)
        _ = recordedSession(servedWire("sum"), recorder: recorder, messages: (0..<3).map { _ in textMessage("number1", long) })
        let second = try recordings()
        XCTAssertEqual(second.count, 1, "the two together are over 4096 bytes: the older one went")
        XCTAssertNotEqual(second, first)
    }
}

/// Accepts any login at once, while it is asked.
private struct ImmediateLoginService: LoginService {
    func login() -> Observable<Bool> { .just(true) }
}
