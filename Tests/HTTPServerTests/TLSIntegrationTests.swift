import COpenSSL
import EventLoop
import Foundation
@testable import HTTPServer
import NetworkTestSupport
import TLS
import XCTest

/// HTTPS and WSS through the real server on real sockets, with certificates made by `openssl`.
final class TLSIntegrationTests: XCTestCase {
    private var harness: ServerHarness?
    private var certificates: TestCertificates!
    private var tls: ReloadableTLSContext!

    override func setUpWithError() throws {
        certificates = try TestCertificates()
        let (certificate, key) = try certificates.issue("server", commonName: "first")
        tls = try ReloadableTLSContext(certificatePath: certificate, keyPath: key)
    }

    override func tearDown() {
        if let harness { XCTAssertTrue(harness.shutdown()) }
        harness = nil
        certificates = nil
    }

    private func start(_ configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws -> ServerHarness {
        let tls = self.tls
        let harness = try ServerHarness { configuration in
            configuration.tls = tls
            configure(&configuration)
        }
        self.harness = harness
        return harness
    }

    private func connect(_ harness: ServerHarness, versions: ClosedRange<Int32> = TLS1_2_VERSION...TLS1_3_VERSION,
                         alpn: [String] = ["http/1.1"]) throws -> BlockingTLSClient {
        try BlockingTLSClient(port: harness.port, trusting: certificates.authority, versions: versions, alpn: alpn)
    }

    /// A WebSocket over TLS that has echoed one message.
    private func openWebSocket(_ harness: ServerHarness) throws -> BlockingTLSClient {
        let client = try connect(harness)
        client.send(WSTestFrames.upgradeRequest())
        XCTAssertEqual(client.readResponse()?.status, 101)
        try assertEchoes(client, "hello")
        return client
    }

    private func assertEchoes(_ client: BlockingTLSClient, _ text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        client.send(WSTestFrames.text(text))
        let frame = try XCTUnwrap(client.readFrame(), file: file, line: line)
        XCTAssertEqual(frame.opcode, 1, file: file, line: line)
        XCTAssertEqual(String(decoding: frame.payload, as: UTF8.self), "echo:" + text, file: file, line: line)
    }

    private func openConnections(_ harness: ServerHarness) throws -> Int {
        let server = harness.server
        return try harness.runner.sync { server.value?.connectionCount ?? -1 }
    }

    func testHTTPSAndWSSOnOnePortWithTLS13AndALPN() throws {
        let harness = try start()
        let client = try connect(harness)
        XCTAssertEqual(client.protocolVersion, "TLSv1.3")
        XCTAssertEqual(client.negotiatedProtocol, "http/1.1")
        let page = try XCTUnwrap(client.request("/"))
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.text, "<h1>home</h1>\n")
        XCTAssertEqual(client.request("/healthz")?.text, #"{"status":"ok"}"#, "keep-alive over TLS")
        let webSocket = try openWebSocket(harness)
        // A message bigger than one TLS record (16 KiB) crosses several records both ways.
        let big = String(repeating: "x", count: 40_000)
        try assertEchoes(webSocket, big)
        webSocket.send(WSTestFrames.close(1000))
        XCTAssertEqual(webSocket.readFrame()?.opcode, 8)
        XCTAssertTrue(webSocket.receiveAll().eof)
    }

    func testEveryTLS13SuiteWithKeyUpdatesAndResumptionOnTheServersOwnRecords() throws {
        let harness = try start()
        for suite in ["TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"] {
            let first = try BlockingTLSClient(port: harness.port, trusting: certificates.authority,
                                              versions: TLS1_3_VERSION...TLS1_3_VERSION, suites: suite)
            XCTAssertEqual(first.cipherSuite, suite)
            first.send(WSTestFrames.upgradeRequest())
            XCTAssertEqual(first.readResponse()?.status, 101)
            try assertEchoes(first, "before")
            // Each update asks for the server's: both directions change keys three times.
            for round in 0..<3 {
                XCTAssertTrue(first.updateKeys())
                try assertEchoes(first, "after \(round)")
            }
            try assertEchoes(first, String(repeating: "y", count: 40_000))
            // The server's tickets came before its first record of data: a later connection
            // resumes with one.
            let session = try XCTUnwrap(first.session)
            defer { SSL_SESSION_free(session) }
            let second = try BlockingTLSClient(port: harness.port, trusting: certificates.authority,
                                               versions: TLS1_3_VERSION...TLS1_3_VERSION, suites: suite, resuming: session)
            XCTAssertTrue(second.resumed, suite)
            XCTAssertEqual(second.request("/healthz")?.text, #"{"status":"ok"}"#, suite)
        }
    }

    func testTLS12IsAcceptedAndOlderVersionsAreRefused() throws {
        let harness = try start()
        let tls12 = try connect(harness, versions: TLS1_2_VERSION...TLS1_2_VERSION)
        XCTAssertEqual(tls12.protocolVersion, "TLSv1.2")
        XCTAssertEqual(tls12.request("/healthz")?.status, 200)
        XCTAssertThrowsError(try connect(harness, versions: TLS1_VERSION...TLS1_1_VERSION))
        XCTAssertThrowsError(try connect(harness, alpn: ["h2"]), "ALPN without http/1.1 gets no_application_protocol")
        XCTAssertEqual(try connect(harness, alpn: []).request("/healthz")?.status, 200, "no ALPN at all is fine")
    }

    func testBrokenClientsAreClosedAndOthersKeepBeingServed() throws {
        let harness = try start { $0.headTimeout = .milliseconds(400) }
        let webSocket = try openWebSocket(harness)

        // Plain HTTP on the TLS port: closed without an answer.
        let plain = try harness.client()
        plain.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        XCTAssertEqual(plain.receiveUntilEOF().eof, true)
        // Garbage that is not a TLS record.
        let garbage = try harness.client()
        garbage.send([UInt8](repeating: 0xFF, count: 300))
        XCTAssertEqual(garbage.receiveUntilEOF().eof, true)
        // A client that does not trust the certificate aborts its handshake with an alert.
        let strangers = try TestCertificates()
        XCTAssertThrowsError(try BlockingTLSClient(port: harness.port, trusting: strangers.authority))
        // A handshake that stalls halfway (a record header, then nothing) ends at the head timeout.
        let stalled = try harness.client()
        stalled.send([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00])
        let silent = try harness.client()
        XCTAssertEqual(stalled.receiveUntilEOF().eof, true)
        XCTAssertEqual(silent.receiveUntilEOF().eof, true)
        // A client that disappears mid-handshake.
        do {
            let vanishing = try harness.client()
            vanishing.send([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00])
        }

        try assertEchoes(webSocket, "still here")
        XCTAssertEqual(try connect(harness).request("/healthz")?.status, 200)
        XCTAssertTrue(try eventually(timeout: 15) { try openConnections(harness) == 0 }, "every broken connection was closed")
    }

    func testReloadServesTheNewCertificateAndKeepsOpenSessions() throws {
        let harness = try start()
        let webSocket = try openWebSocket(harness)
        XCTAssertEqual(try connect(harness).peerSubject, "/CN=first")

        // New files at the same paths, as a certificate renewal leaves them.
        try certificates.issue("server", commonName: "second")
        try tls.reload()
        XCTAssertEqual(try connect(harness).peerSubject, "/CN=second")
        try assertEchoes(webSocket, "after reload")

        // A broken renewal is refused and the previous certificate stays.
        try "not a key".write(toFile: tls.keyPath, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try tls.reload())
        XCTAssertEqual(try connect(harness).peerSubject, "/CN=second")
    }

    func testUnusableKeysAndCertificatesAreRefusedWithOneLine() throws {
        let (certificate, key) = try certificates.issue("other", commonName: "other")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key)
        XCTAssertThrowsError(try TLSContext(certificatePath: certificate, keyPath: key)) { error in
            XCTAssertEqual("\(error)", "the TLS key \(key) is accessible to group or others (mode 644): run chmod 600 on it")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
        XCTAssertNoThrow(try TLSContext(certificatePath: certificate, keyPath: key))
        XCTAssertThrowsError(try TLSContext(certificatePath: certificate, keyPath: tls.keyPath)) { error in
            XCTAssertTrue("\(error)".contains("does not belong to the certificate"), "\(error)")
        }
        let missing = certificates.path("missing.pem")
        XCTAssertThrowsError(try TLSContext(certificatePath: missing, keyPath: key)) { error in
            XCTAssertEqual("\(error)", "cannot read the TLS certificate \(missing): No such file or directory")
        }
        XCTAssertThrowsError(try TLSContext(certificatePath: key, keyPath: key)) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot use the TLS certificate \(key): "), "\(error)")
            XCTAssertFalse("\(error)".contains("\n"))
        }
    }
}
