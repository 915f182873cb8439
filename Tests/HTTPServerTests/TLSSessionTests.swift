import Foundation
import TLS
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
        XCTAssertFalse(output(of: server).isEmpty, "the alert is left to send")
    }
}
