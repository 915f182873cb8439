import Foundation
import Logging
import NetworkTestSupport
import ServiceLifecycle
import XCTest
@testable import RxLive

/// An app's own security headers, declared in `RxLiveApp`, are what its pages are served with.
final class AppSecurityHeadersTests: XCTestCase {
    func testAnAppsDeclaredPolicyIsWhatItsPagesGet() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rxlive-headers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "<!doctype html><title>page</title>\n".write(to: folder.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)

        var headers = SecurityHeaders.strict
        headers.contentSecurityPolicy = ContentSecurityPolicy.strict
            .setting("connect-src", to: [ContentSecurityPolicy.pageWebSocketOrigin, "https://api.example.org"])
        headers.referrerPolicy = "same-origin"
        headers.crossOriginOpenerPolicy = nil
        let app = RxLiveApp(name: "headers-app", abstract: "", securityHeaders: headers) { _ in [] }
        var configuration = Configuration()
        configuration.port = 0
        configuration.loops = 1
        configuration.publicDirectory = folder.path
        configuration.dashboard = .off
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let server = try RxLiveService(app: app, configuration: configuration, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [server], logger: logger))
        let running = Task { try await group.run() }

        let client = try BlockingClient(port: server.port)
        client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let head = String(decoding: client.receiveHead(), as: UTF8.self).lowercased()
        XCTAssertTrue(head.contains("content-security-policy: default-src 'none';"), head)
        XCTAssertTrue(head.contains("connect-src ws://127.0.0.1 https://api.example.org;"), head)
        XCTAssertTrue(head.contains("referrer-policy: same-origin\r\n"), head)
        XCTAssertTrue(head.contains("x-frame-options: deny\r\n"), head)
        XCTAssertFalse(head.contains("cross-origin-opener-policy"), head)
        XCTAssertFalse(head.contains("strict-transport-security"), "HSTS over plain HTTP: \(head)")

        await group.triggerGracefulShutdown()
        try await running.value
    }
}
