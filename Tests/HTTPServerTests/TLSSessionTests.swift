import COpenSSL
import Foundation
@testable import TLS
import XCTest

/// A client and a server `TLSSession` driven in memory: how the server reads ciphertext in
/// place, where the plaintext may go, and what a declined delivery leaves for later.
final class TLSSessionTests: XCTestCase {
    private var certificates: TestCertificates!
    private var client: TLSSession!
    private var server: TLSSession!

    override func setUpWithError() throws {
        certificates = try TestCertificates()
        let (certificate, key) = try certificates.issue("server", commonName: "localhost")
        client = try TLSClientContext(trusting: certificates.authority).makeSession()
        server = try TLSContext(certificatePath: certificate, keyPath: key).makeSession()
        try client.startHandshake()
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        for _ in 0..<8 {
            let toServer = output(of: client)
            let toClient = output(of: server)
            if toServer.isEmpty && toClient.isEmpty { return }
            try scratch.withUnsafeMutableBytes { scratch in
                try toServer.withUnsafeBytes { try server.receive($0, scratch: scratch) { _ in true } }
                try toClient.withUnsafeBytes { try client.receive($0, scratch: scratch) { _ in true } }
            }
        }
        XCTFail("the handshake did not settle")
    }

    override func tearDown() {
        client = nil
        server = nil
        certificates = nil
    }

    private func output(of session: TLSSession) -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1000) // smaller than a flight: taken in parts
        while true {
            let count = buffer.withUnsafeMutableBytes { session.readOutput(into: $0) }
            if count == 0 { return all }
            all += buffer[..<count]
        }
    }

    /// `plaintext` sent by `sender` in writes of 7,000 bytes, as the records it makes.
    private func records(_ plaintext: [UInt8], from sender: TLSSession? = nil) throws -> [UInt8] {
        let sender = sender ?? client!
        for start in stride(from: 0, to: plaintext.count, by: 7000) {
            try plaintext[start..<min(start + 7000, plaintext.count)].withUnsafeBytes { try sender.send($0) }
        }
        return output(of: sender)
    }

    private let plaintext = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }

    func testPlaintextMayOverwriteTheCiphertextItCameFrom() throws {
        // Both ways: the server reads ahead, the client reads a record's header and then its body.
        for (sender, receiver) in [(client!, server!), (server!, client!)] {
            let ciphertext = try records(plaintext, from: sender)
            var delivered: [UInt8] = []
            // Pieces cut across records; each piece's own buffer is also the scratch.
            for start in stride(from: 0, to: ciphertext.count, by: 9000) {
                var buffer = Array(ciphertext[start..<min(start + 9000, ciphertext.count)])
                let count = buffer.count
                try buffer.withUnsafeMutableBytes { buffer in
                    try receiver.receive(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), scratch: buffer) { piece in
                        delivered += piece
                        return true
                    }
                }
            }
            XCTAssertTrue(delivered == plaintext, "\(delivered.count) of \(plaintext.count) bytes, or altered ones")
        }
    }

    func testADeclinedDeliveryLeavesTheRestForTheNextReceive() throws {
        let ciphertext = try records(plaintext)
        var scratch = [UInt8](repeating: 0, count: 4096)
        var delivered: [UInt8] = []
        var calls = 0
        try scratch.withUnsafeMutableBytes { scratch in
            try ciphertext.withUnsafeBytes { bytes in
                try server.receive(bytes, scratch: scratch) { piece in
                    delivered += piece
                    return false
                }
            }
            XCTAssertEqual(delivered.count, 4096, "one piece, then the reader declined")
            // Nothing new arrives: what was left is decoded from the session's own copy.
            while delivered.count < plaintext.count && calls < 100 {
                calls += 1
                try server.receive(UnsafeRawBufferPointer(start: nil, count: 0), scratch: scratch) { piece in
                    delivered += piece
                    return delivered.count % 3 != 0
                }
            }
        }
        XCTAssertTrue(delivered == plaintext, "\(delivered.count) of \(plaintext.count) bytes, or altered ones")
    }

    func testAFlippedByteFailsTheSessionAndItDeliversNothingMore() throws {
        var ciphertext = try records(Array(plaintext[0..<100]))
        ciphertext[ciphertext.count - 3] ^= 1
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        var delivered = 0
        var failures = 0
        for _ in 0..<2 {
            do {
                try scratch.withUnsafeMutableBytes { scratch in
                    try ciphertext.withUnsafeBytes { bytes in
                        try server.receive(bytes, scratch: scratch) { delivered += $0.count; return true }
                    }
                }
            } catch {
                failures += 1
            }
        }
        XCTAssertEqual(failures, 1, "the first receive throws, the failed session then ignores input")
        XCTAssertEqual(delivered, 0)
        let alert = output(of: server)
        XCTAssertFalse(alert.isEmpty, "the alert is left to send")
        XCTAssertThrowsError(try alert.withUnsafeBytes { bytes in
            try scratch.withUnsafeMutableBytes { try client.receive(bytes, scratch: $0) { _ in true } }
        }) { XCTAssertTrue("\($0)".contains("bad record mac"), "\($0)") }
    }

    func testAServerTLS13SessionRunsItsOwnRecordsOnceTheHandshakeIsOver() throws {
        XCTAssertNil(server.ssl, "OpenSSL's session was freed")
        XCTAssertNotNil(server.records)
        XCTAssertNotNil(client.ssl, "a client keeps OpenSSL's")
    }

    /// What `receiver` delivers of `bytes`, given whole or a byte at a time.
    private func deliver(_ bytes: [UInt8], to receiver: TLSSession, byteByByte: Bool = false) throws -> String {
        var delivered: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 17 * 1024)
        let pieces = byteByByte ? bytes.map { [$0] } : [bytes]
        for piece in pieces {
            try scratch.withUnsafeMutableBytes { scratch in
                try piece.withUnsafeBytes { try receiver.receive($0, scratch: scratch) { delivered += $0; return true } }
            }
        }
        return String(decoding: delivered, as: UTF8.self)
    }

    private func send(_ text: String, from sender: TLSSession) throws {
        try Array(text.utf8).withUnsafeBytes { try sender.send($0) }
    }

    func testKeyUpdatesEitherWayBetweenOurRecordsAndOpenSSLs() throws {
        for round in 0..<3 {
            try server.updateKeys()
            try send("s\(round)", from: server)
            XCTAssertEqual(try deliver(output(of: server), to: client), "s\(round)")
            // OpenSSL answers the server's request before its next record; cut into single bytes.
            try send("c\(round)", from: client)
            XCTAssertEqual(try deliver(output(of: client), to: server, byteByByte: true), "c\(round)")
            try client.updateKeys()
            try send("k\(round)", from: client)
            XCTAssertEqual(try deliver(output(of: client), to: server), "k\(round)")
            try send("r\(round)", from: server) // after the server's answering KeyUpdate
            XCTAssertEqual(try deliver(output(of: server), to: client), "r\(round)")
        }
    }

    func testCloseNotifyEitherWay() throws {
        server.finishOutput()
        XCTAssertEqual(try deliver(output(of: server), to: client), "")
        XCTAssertNotEqual(SSL_get_shutdown(client.ssl) & SSL_RECEIVED_SHUTDOWN, 0, "OpenSSL read the server's close_notify")
        try send("last", from: client)
        let last = output(of: client)
        client.finishOutput()
        XCTAssertEqual(try deliver(last + output(of: client), to: server), "last", "data before close_notify is read")
        XCTAssertTrue(server.records?.peerClosed == true)
    }

    func testOpenSSLReadsTheAlertOfARecordTheServerRefused() throws {
        XCTAssertThrowsError(try deliver([22, 3, 3, 0, 1, 0], to: server))
        XCTAssertThrowsError(try deliver(output(of: server), to: client)) {
            XCTAssertTrue("\($0)".contains("unexpected message"), "\($0)")
        }
    }
}
