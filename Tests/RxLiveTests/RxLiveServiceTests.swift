import Foundation
import Logging
import NetworkTestSupport
import RxSwift
import ServiceLifecycle
import Synchronization
import XCTest
@testable import RxLive

/// RxLive as a swift-service-lifecycle `Service` beside another service: one graceful
/// shutdown of the group drains the server (its session closed with 1001) and ends both.
final class RxLiveServiceTests: XCTestCase {
    /// A service that waits for the group's graceful shutdown and says when it saw it.
    private final class OtherService: Service, Sendable {
        let sawShutdown = Atomic<Bool>(false)

        func run() async throws {
            try? await gracefulShutdown()
            sawShutdown.store(true, ordering: .sequentiallyConsistent)
        }
    }

    private func configuration(public folder: String) -> Configuration {
        var configuration = Configuration()
        configuration.port = 0
        configuration.loops = 1
        configuration.publicDirectory = folder
        configuration.dashboard = .off
        configuration.shutdownTimeout = .seconds(2)
        return configuration
    }

    private let echo = RxLiveApp(name: "echo-server", abstract: "Echoes a text input.") { _ in
        [WireViewModel(
            name: "echo",
            transform: { (input: Observable<String>) in input.map { $0.uppercased() } },
            input: { wire in wire.text("text") },
            outputs: [WireOutput("echo", \.self)])]
    }

    func testOneGracefulShutdownOfTheGroupDrainsTheServerAndEndsEveryService() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rxlive-service-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let server = try RxLiveService(app: echo, configuration: configuration(public: folder.path), logger: logger)
        let other = OtherService()
        let group = ServiceGroup(configuration: .init(services: [server, other], logger: logger))
        let running = Task { try await group.run() }

        // A session over a real socket: the view model answers.
        let client = try BlockingClient(port: server.port)
        client.send("GET /ws/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        let head = String(decoding: client.receiveHead(), as: UTF8.self)
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 101"), head)
        let ready = client.receiveTextFrame()
        XCTAssertTrue(ready.hasPrefix(#"{"ready":{"viewModel":"echo""#), ready)
        client.sendMaskedText(#"{"input":"text","value":"hi"}"#)
        XCTAssertEqual(client.receiveTextFrame(), #"{"output":"echo","value":"HI"}"#)

        await group.triggerGracefulShutdown()
        try await running.value
        XCTAssertTrue(other.sawShutdown.load(ordering: .sequentiallyConsistent), "the other service saw the same shutdown")
        let (rest, eof) = client.receiveUntilEOF()
        XCTAssertTrue(eof)
        // The session was closed by the drain: a close frame with 1001 (going away).
        XCTAssertGreaterThanOrEqual(rest.count, 4, "a close frame")
        if rest.count >= 4 {
            XCTAssertEqual(rest[0], 0x88)
            XCTAssertEqual(UInt16(rest[2]) << 8 | UInt16(rest[3]), 1001)
        }
    }
}

extension BlockingClient {
    /// The response head, up to its blank line (what follows stays pending).
    func receiveHead() -> [UInt8] {
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let range = pending.firstRange(of: end) {
                let head = Array(pending[..<range.upperBound])
                pending.removeFirst(range.upperBound)
                return head
            }
            guard let more = receiveSome() else { return pending }
            pending += more
        }
    }

    /// One unmasked server text frame of under 126 bytes, as its text.
    func receiveTextFrame() -> String {
        while pending.count < 2 || pending.count < 2 + Int(pending[1] & 0x7F) {
            guard let more = receiveSome() else { return "" }
            pending += more
        }
        let length = Int(pending[1] & 0x7F)
        let text = String(decoding: pending[2..<(2 + length)], as: UTF8.self)
        pending.removeFirst(2 + length)
        return text
    }

    /// One masked client text frame of under 126 bytes.
    func sendMaskedText(_ text: String) {
        let mask: [UInt8] = [1, 2, 3, 4]
        let payload = Array(text.utf8).enumerated().map { $0.element ^ mask[$0.offset % 4] }
        send([0x81, 0x80 | UInt8(payload.count)] + mask + payload)
    }
}
