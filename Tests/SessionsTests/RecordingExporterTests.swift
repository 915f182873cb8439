import Foundation
@testable import Sessions
import XCTest

/// The dashboard's export runs a child process: bounded in time and output, and a failure is
/// one line the viewer can read.
final class RecordingExporterTests: XCTestCase {
    func testAChildsOutputErrorAndExitStatusAreRead() throws {
        let run = try ChildProcess.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"], timeout: .seconds(10), maxOutput: 1000)
        XCTAssertEqual(run.status, 3)
        XCTAssertEqual(run.output, "out\n")
        XCTAssertEqual(run.errorOutput, "err\n")
    }

    func testAChildThatRunsOverItsTimeIsKilledAndSaysSo() {
        let started = ContinuousClock.now
        XCTAssertThrowsError(try ChildProcess.run("/bin/sh", ["-c", "exec sleep 30"], timeout: .milliseconds(200), maxOutput: 1000)) { error in
            XCTAssertEqual("\(error)", "the export took over 0.2 seconds")
        }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5))
    }

    func testAChildThatWritesTooMuchIsKilledAndSaysSo() {
        XCTAssertThrowsError(try ChildProcess.run("/usr/bin/yes", [], timeout: .seconds(10), maxOutput: 100_000)) { error in
            XCTAssertEqual("\(error)", "the export wrote over 100000 bytes")
        }
    }

    func testAFailedExportIsTheChildsFirstLineOfErrorAndItsFilesAreGone() throws {
        let script = FileManager.default.temporaryDirectory.path + "/rxlive-exporter-test-\(getpid()).sh"
        // Stands in for `<app> replay --rxtest FILE`: says which file it got, then fails.
        try Data("#!/bin/sh\necho \"cannot read $3\" >&2\necho second line >&2\nexit 2\n".utf8).write(to: URL(fileURLWithPath: script))
        chmod(script, 0o700)
        defer { unlink(script) }
        let exporter = RecordingExporter(executable: script)
        XCTAssertThrowsError(try exporter.testCase(recording: "{}\n", fileName: "1-sum-ab.rxlive.jsonl")) { error in
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix("the export failed: cannot read "), message)
            XCTAssertTrue(message.hasSuffix("/1-sum-ab.rxlive.jsonl"), message)
            let path = String(message.dropFirst("the export failed: cannot read ".count))
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), "the private copy is removed")
            XCTAssertFalse(FileManager.default.fileExists(atPath: (path as NSString).deletingLastPathComponent))
        }
    }

    func testTheChildGetsAPrivateCopyOfTheRecording() throws {
        let script = FileManager.default.temporaryDirectory.path + "/rxlive-exporter-copy-\(getpid()).sh"
        // Prints a test case naming the copy's mode, its folder's mode and its text.
        try Data("#!/bin/sh\necho \"final class Copy: XCTestCase $(stat -c %a \"$3\") $(stat -c %a \"$(dirname \"$3\")\") $(cat \"$3\")\"\n".utf8)
            .write(to: URL(fileURLWithPath: script))
        chmod(script, 0o700)
        defer { unlink(script) }
        let test = try RecordingExporter(executable: script).testCase(recording: "line\n", fileName: "r.rxlive.jsonl")
        XCTAssertEqual(test.name, "Copy.swift")
        XCTAssertEqual(test.source, "final class Copy: XCTestCase 600 700 line\n")
    }
}
