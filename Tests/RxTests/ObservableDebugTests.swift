import Foundation
import RxSwift
import RxTest
import XCTest

/// Runs `body` with the process's standard output sent to a pipe and returns what it printed.
private func capturingStandardOutput(_ body: () -> Void) -> [String] {
    let pipe = Pipe()
    fflush(nil)
    let saved = dup(STDOUT_FILENO)
    dup2(pipe.fileHandleForWriting.fileDescriptor, STDOUT_FILENO)
    body()
    fflush(nil)
    dup2(saved, STDOUT_FILENO)
    close(saved)
    pipe.fileHandleForWriting.closeFile()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
}

/// The part of a debug line after its time stamp, checking the stamp's format.
private func withoutTimestamp(_ line: String) -> String {
    let stamp = line.prefix(23)
    XCTAssertNotNil(stamp.range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$"#, options: .regularExpression), "bad time stamp in \(line)")
    return String(line.dropFirst(25))
}

final class ObservableDebugTests: RxTestCase {
    func testDebugPrintsSubscriptionEventsAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        var res: TestableObserver<Int>?
        let lines = capturingStandardOutput {
            res = scheduler.start { xs.debug("numbers") }
        }
        XCTAssertEqual(res?.events, [.next(210, 1), .next(220, 2), .completed(250)])
        XCTAssertEqual(lines.map(withoutTimestamp), [
            "numbers -> subscribed",
            "numbers -> Event next(1)",
            "numbers -> Event next(2)",
            "numbers -> Event completed",
            "numbers -> isDisposed",
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDebugErrorDisposalDefaultIdentifierAndTrimming() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, String(repeating: "x", count: 60)), .error(230, testError)])
        let line = #line + 2
        let lines = capturingStandardOutput {
            _ = scheduler.start { xs.debug(trimOutput: true) }
        }.map(withoutTimestamp)
        let identifier = "ObservableDebugTests.swift:\(line) (testDebugErrorDisposalDefaultIdentifierAndTrimming())"
        XCTAssertEqual(lines, [
            "\(identifier) -> subscribed",
            "\(identifier) -> Event next(\(String(repeating: "x", count: 15))...\(String(repeating: "x", count: 19)))",
            "\(identifier) -> Event error(TestError(1))",
            "\(identifier) -> isDisposed",
        ])

        let ys = scheduler.createHotObservable([.next(1210, 1), .next(1260, 2)])
        let disposedLines = capturingStandardOutput {
            _ = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) { ys.debug("d") }
        }.map(withoutTimestamp)
        XCTAssertEqual(disposedLines, ["d -> subscribed", "d -> Event next(1)", "d -> isDisposed"])
    }

    func testDebugThrowingUpstreamAndReentrantObserver() {
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        let lines = capturingStandardOutput {
            _ = recordingAnomalies {
                let subscription = subject.map { value -> Int in
                    if value == 3 { throw testError }
                    return value
                }.debug("r").subscribe(onNext: { value in
                    values.append(value)
                    if value == 1 { subject.onNext(2) }
                }, onError: { _ in })
                subject.onNext(1)
                subject.onNext(3)
                subscription.dispose()
            }
        }.map(withoutTimestamp)
        XCTAssertEqual(values, [1, 2])
        XCTAssertEqual(lines, ["r -> subscribed", "r -> Event next(1)", "r -> Event next(2)", "r -> Event error(TestError(1))", "r -> isDisposed"])
    }
}
