import Foundation
import XCTest
@testable import Sessions

/// A recording's lines as `SessionRecording` writes them from several threads at once, through
/// its flushes and up to its file's bound: each line whole, none lost, the file cut at the last
/// line that fits.
final class SessionRecordingLinesTests: XCTestCase {
    private var folder: String!

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "rxlive-recording-lines-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private static let header = "{\"rxliveRecording\":2}\n"

    /// A recording into a new file of at most `maxBytes`, and the file's path.
    private func recording(maxBytes: Int) throws -> SessionRecording {
        let path = folder + "/lines.rxlive.jsonl"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        let recorder = try SessionRecorder(directory: folder, maxFiles: 10, maxBytes: 1 << 30)
        return SessionRecording(path: path, descriptor: descriptor, header: Self.header, inputs: [], maxBytes: maxBytes,
                                recorder: recorder)
    }

    /// Output `index`'s message for `writer`: a value of 1 to 97 bytes, so that lines of every
    /// length cross the buffer's flushes.
    private static func message(_ writer: Int, _ index: Int) -> String {
        "{\"output\":\"o\(writer)\",\"value\":\"\(index)-\(String(repeating: "x", count: index % 90))\"}"
    }

    private static func written(_ recording: SessionRecording, _ message: String) {
        var message = message
        message.withUTF8 { recording.output(message: UnsafeRawBufferPointer($0), onSessionThread: false) }
    }

    /// The file's lines after the header, each without its `{"t":…,` (checked to be there).
    private func untimedLines(_ path: String) throws -> [String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssert(text.hasPrefix(Self.header) && text.hasSuffix("\n"))
        return text.dropFirst(Self.header.utf8.count).split(separator: "\n").map { line in
            guard line.hasPrefix("{\"t\":"), let comma = line.firstIndex(of: ","),
                  line[line.index(line.startIndex, offsetBy: 5)..<comma].allSatisfy(\.isNumber) else { return String(line) }
            return "{" + line[line.index(after: comma)...]
        }
    }

    func testLinesWrittenFromSeveralThreadsAtOnceAreEachWholeAndInEachThreadsOrder() throws {
        let recording = try recording(maxBytes: 1 << 30)
        let writers = 4, perWriter = 5_000
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            for index in 0..<perWriter { Self.written(recording, Self.message(writer, index)) }
        }
        recording.finish()
        var lines = try untimedLines(recording.path)
        XCTAssertEqual(lines.popLast(), #"{"end":"closed"}"#)
        XCTAssertEqual(lines.count, writers * perWriter)
        for writer in 0..<writers {
            let own = lines.filter { $0.hasPrefix("{\"output\":\"o\(writer)\",") }
            XCTAssertEqual(own.count, perWriter, "writer \(writer)")
            if let (index, line) = own.enumerated().first(where: { $0.element != Self.message(writer, $0.offset) }) {
                XCTFail("writer \(writer)'s line \(index): \(line)")
            }
        }
    }

    func testAFileIsCutAtTheLastLineThatFitsItsBoundThroughItsFlushes() throws {
        let maxBytes = 50_000  // three flushes of 16 KiB before the bound
        let before = recordingClock()
        let recording = try recording(maxBytes: maxBytes)
        for index in 0..<2_000 { Self.written(recording, Self.message(0, index)) }
        // The refused line's time is at most this: its clock was read after `before` and
        // before now, and the recording's start is not before `before`.
        let latestTime = recordingClock() - before
        recording.finish()
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: recording.path)[.size] as? Int)
        XCTAssertLessThanOrEqual(size, maxBytes)
        var lines = try untimedLines(recording.path)
        XCTAssertEqual(lines.popLast(), #"{"truncated":true}"#)
        XCTAssertEqual(lines, (0..<lines.count).map { Self.message(0, $0) })
        // The next line did not fit with the marker, even with the longest time it can have
        // (a time of fewer digits made this flake on a loaded machine).
        let next = "{\"t\":\(latestTime)," + Self.message(0, lines.count).dropFirst() + "\n"
        XCTAssertGreaterThan(size + next.utf8.count, maxBytes, "cut \(lines.count) lines in, with room for more")
    }
}
