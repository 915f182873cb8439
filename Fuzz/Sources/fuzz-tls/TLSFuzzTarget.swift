import Foundation
import FuzzSupport
import TLS

/// The TLS filter's buffering: a server `TLSSession` after a real handshake with a client
/// session, both driven in memory as the server drives them.
///
/// Input: a mode byte, a split-pattern byte, then a payload.
/// - Mode even: the payload is plaintext the client sends (in pieces); when mode bit 1 is
///   set, one byte of the ciphertext (chosen by the next byte) is flipped on the way.
/// - Mode odd: the payload is arbitrary bytes, fed to the server as if they were records
///   (after the handshake, or after only the ClientHello when mode bit 1 is set).
///
/// Invariants:
/// - what the server delivers is always a prefix of what the client sent: exactly all of it
///   when nothing was altered, and a flipped byte never yields altered plaintext;
/// - delivery resumes where it stopped when the reader declines a piece (`deliver` false);
/// - after the server has failed it delivers nothing more and throws no more.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTLS(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let mode = input.byte()
    let split = input.byte()
    let pattern = [split & 0x0F, split >> 4, 5, 200]
    let flipAt = Int(input.byte())
    let payload = input.rest()
    let pair = TLSPair()
    if mode & 1 == 0 {
        guard pair.handshake() else { invariant(false, "the handshake failed"); return 0 }
        roundTrip(payload, pair: pair, pattern: pattern, flipAt: mode & 2 != 0 ? flipAt : nil, declineEvery: Int(mode >> 2))
    } else {
        if mode & 2 == 0 {
            guard pair.handshake() else { invariant(false, "the handshake failed"); return 0 }
        } else {
            pair.moveClientHello()
        }
        var receiver = Receiver(server: pair.server, declineEvery: Int(mode >> 2))
        for piece in pieces(of: payload, sizes: pattern) { receiver.receive(Array(piece)) }
        receiver.drain()
    }
    return 0
}

/// The server's receiving side as a connection drives it, recording what it delivers.
struct Receiver {
    let server: TLSSession
    /// Every n-th delivered piece is declined (0: none), as a connection that stops reading does.
    let declineEvery: Int
    var delivered: [UInt8] = []
    var pieceCount = 0
    var failed = false
    var scratch = [UInt8](repeating: 0, count: 16 * 1024)

    init(server: TLSSession, declineEvery: Int) {
        self.server = server
        self.declineEvery = declineEvery
    }

    mutating func receive(_ bytes: [UInt8]) {
        let wasFailed = failed
        var pieces = pieceCount
        var received: [UInt8] = []
        let every = declineEvery
        do {
            try bytes.withUnsafeBytes { bytes in
                try scratch.withUnsafeMutableBytes { scratch in
                    try server.receive(bytes, scratch: scratch) { piece in
                        invariant(piece.count <= scratch.count, "a piece larger than the scratch buffer")
                        received.append(contentsOf: piece)
                        pieces += 1
                        return every == 0 || pieces % every != 0
                    }
                }
            }
        } catch {
            invariant(!wasFailed, "a failed session threw again")
            failed = true
        }
        invariant(!wasFailed || received.isEmpty, "a failed session delivered")
        pieceCount = pieces
        delivered += received
    }

    /// Reads what OpenSSL still holds after declined pieces.
    mutating func drain() {
        for _ in 0..<64 {
            let before = delivered.count
            receive([])
            if delivered.count == before { return }
        }
    }
}

func roundTrip(_ plaintext: [UInt8], pair: TLSPair, pattern: [UInt8], flipAt: Int?, declineEvery: Int) {
    for piece in pieces(of: plaintext, sizes: pattern) {
        piece.withUnsafeBytes { try! pair.client.send($0) }
    }
    var ciphertext = pair.output(of: pair.client)
    if let flipAt, !ciphertext.isEmpty { ciphertext[flipAt % ciphertext.count] ^= 0x01 }
    var receiver = Receiver(server: pair.server, declineEvery: declineEvery)
    for piece in pieces(of: ciphertext, sizes: pattern.reversed()) {
        receiver.receive(Array(piece))
    }
    receiver.drain()
    invariant(receiver.delivered.count <= plaintext.count && plaintext.starts(with: receiver.delivered),
              "the server delivered bytes the client did not send")
    if flipAt == nil {
        invariant(!receiver.failed, "an intact stream failed")
        invariant(receiver.delivered == plaintext, "delivered \(receiver.delivered.count) of \(plaintext.count) bytes")
    } else if !ciphertext.isEmpty {
        invariant(receiver.delivered.count < plaintext.count || plaintext.isEmpty, "an altered stream was delivered whole")
    }
}

/// A client and a server session over memory, with the certificate made once per process.
final class TLSPair {
    nonisolated(unsafe) static var contexts: (server: TLSContext, client: TLSClientContext)?   // libFuzzer: one thread

    let client: TLSSession
    let server: TLSSession

    init() {
        let (serverContext, clientContext) = Self.contexts ?? Self.makeContexts()
        client = try! clientContext.makeSession()
        server = try! serverContext.makeSession()
        try! client.startHandshake()
    }

    func output(of session: TLSSession) -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { session.readOutput(into: $0) }
            if count == 0 { return all }
            all += buffer[..<count]
        }
    }

    /// Moves bytes both ways until neither side has more to say; false if one side failed.
    func handshake() -> Bool {
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        for _ in 0..<8 {
            let toServer = output(of: client)
            let toClient = output(of: server)
            if toServer.isEmpty && toClient.isEmpty { return true }
            do {
                try scratch.withUnsafeMutableBytes { scratch in
                    try toServer.withUnsafeBytes { try server.receive($0, scratch: scratch) { _ in true } }
                    try toClient.withUnsafeBytes { try client.receive($0, scratch: scratch) { _ in true } }
                }
            } catch {
                return false
            }
        }
        return false
    }

    /// Hands the server only the client's first flight.
    func moveClientHello() {
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        let hello = output(of: client)
        scratch.withUnsafeMutableBytes { scratch in
            hello.withUnsafeBytes { _ = try? server.receive($0, scratch: scratch) { _ in true } }
        }
    }

    /// A self-signed P-256 certificate for localhost, made with the `openssl` command.
    static func makeContexts() -> (server: TLSContext, client: TLSClientContext) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rxlive-fuzz-tls-\(getpid())")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        // system(3), not Foundation's Process: Process leaks a weak reference LeakSanitizer reports.
        let command = "/usr/bin/openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes "
            + "-keyout '\(key)' -out '\(certificate)' -days 2 -subj /CN=localhost -addext subjectAltName=DNS:localhost "
            + ">/dev/null 2>&1"
        invariant(system(command) == 0, "openssl could not make the test certificate")
        try! FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
        let contexts = (try! TLSContext(certificatePath: certificate, keyPath: key), try! TLSClientContext(trusting: certificate))
        try? FileManager.default.removeItem(at: directory)
        Self.contexts = contexts
        return contexts
    }
}
