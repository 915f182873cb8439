import COpenSSL
#if canImport(Glibc)
import Glibc
#endif
import EventLoop

/// TLS on one connection, driven through memory: OpenSSL reads ciphertext straight from the
/// bytes `receive` is given and writes records into a buffer that `readOutput` empties, both
/// through one BIO of our own (`TLSSession+BIO.swift`), so OpenSSL never touches the socket
/// and never blocks the loop, and an idle session holds no buffer of ours. The server side
/// plugs into a `TCPConnection` as its filter; the client side (benchmarks) is driven the same
/// way after `startHandshake()`. Once a server's TLS 1.3 handshake is over, the session takes
/// the traffic keys, frees OpenSSL's `SSL` and runs the records itself (`TLS13RecordLayer`,
/// `TLSSession+Handoff.swift`). Loop thread only.
public final class TLSSession: TCPStreamFilter {
    enum State {
        /// Before the handshake completed; written bytes wait in `early`.
        case handshaking
        /// Records flow both ways.
        case established
        /// Our output ended (close_notify sent if the handshake had completed).
        case outputFinished
        /// A fatal error: only the alert, if any, is left to send.
        case failed
    }

    /// OpenSSL's session: nil once `records` took over.
    var ssl: OpaquePointer?
    /// The records after a server's TLS 1.3 handshake (nil until then, and for TLS 1.2 and clients).
    var records: TLS13RecordLayer?
    var state = State.handshaking
    let isServer: Bool
    /// The application traffic secrets OpenSSL's key log gave during the handshake (server
    /// side), until `records` takes them.
    var clientTrafficSecret: [UInt8] = []
    var serverTrafficSecret: [UInt8] = []
    /// Plaintext of a record larger than the scratch it was read with, not yet delivered.
    var held: [UInt8] = []
    private var early: [UInt8] = []
    /// Ciphertext a declined delivery left unread, read before the next bytes (rarely non-empty).
    var leftover: [UInt8] = []
    // The BIO's side, touched by its callbacks while OpenSSL runs inside `receive`, `send` and
    // `finishOutput`. `@exclusivity(unchecked)`: loop thread only, and no access spans a call.
    /// The ciphertext being read: valid during `receive` only.
    @exclusivity(unchecked) var input = UnsafeRawBufferPointer(start: nil, count: 0)
    /// How much of `input` OpenSSL has read.
    @exclusivity(unchecked) var inputRead = 0
    /// Records to send, from malloc while any wait (nil when none do).
    @exclusivity(unchecked) var outgoing: UnsafeMutableRawPointer?
    @exclusivity(unchecked) var outgoingCount = 0
    @exclusivity(unchecked) var outgoingCapacity = 0
    /// How much of `outgoing` `readOutput` has taken.
    @exclusivity(unchecked) var outgoingTaken = 0
    /// Told once why the session failed (a handshake refused, a bad record), for logs.
    public var onFailure: ((TLSError) -> Void)?

    /// A session of `context` (an SSL_CTX, which the session then keeps alive itself).
    init(context: OpaquePointer, isServer: Bool) throws {
        ERR_clear_error()
        guard let ssl = SSL_new(context) else { throw TLSError.openSSL("cannot create a TLS session") }
        guard let bio = BIO_new(TLSSession.bioMethod) else {
            SSL_free(ssl)
            throw TLSError.openSSL("cannot create a TLS session's BIO")
        }
        self.ssl = ssl
        self.isServer = isServer
        BIO_set_data(bio, Unmanaged.passUnretained(self).toOpaque())
        SSL_set_bio(ssl, bio, bio) // one BIO both ways: the SSL owns its one reference
        if isServer { SSL_set_accept_state(ssl) } else { SSL_set_connect_state(ssl) }
    }

    deinit {
        if let ssl { SSL_free(ssl) }
        free(outgoing)
        forgetTrafficSecrets()
    }

    /// Client side: produces the ClientHello (read it with `readOutput`).
    public func startHandshake() throws {
        guard state == .handshaking, let ssl else { return }
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            state = .established
        } else {
            try wait(after: result, "TLS handshake failed")
        }
    }

    // MARK: TCPStreamFilter

    public func receive(_ bytes: UnsafeRawBufferPointer, scratch: UnsafeMutableRawBufferPointer,
                        deliver: (UnsafeRawBufferPointer) -> Bool) throws {
        guard state != .failed else { return }
        // SSL_get_error reads this thread's error queue: it must start empty. Peeking is
        // cheaper than clearing, and the queue is empty almost always.
        if ERR_peek_error() != 0 { ERR_clear_error() }
        var bytes = bytes
        if !held.isEmpty {
            // The rest of a record that did not fit the scratch comes first; what arrived is
            // kept before the scratch is written.
            leftover.append(contentsOf: bytes)
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            guard deliverHeld(scratch: scratch, deliver: deliver) else { return }
        }
        if leftover.isEmpty && !Self.overlap(bytes, scratch) {
            return try decode(bytes, scratch: scratch, deliver: deliver)
        }
        // OpenSSL reads the ciphertext where it lies, so it must not lie under the plaintext
        // written to `scratch`; and what a declined delivery left comes first.
        var copy = leftover
        leftover = []
        copy.append(contentsOf: bytes)
        try copy.withUnsafeBytes { try decode($0, scratch: scratch, deliver: deliver) }
    }

    /// Runs the handshake and reads records from `bytes`, delivering their plaintext.
    private func decode(_ bytes: UnsafeRawBufferPointer, scratch: UnsafeMutableRawBufferPointer,
                        deliver: (UnsafeRawBufferPointer) -> Bool) throws {
        if records != nil { return try openRecords(bytes, scratch: scratch, deliver: deliver) }
        guard let ssl else { return }
        input = bytes
        inputRead = 0
        defer { input = UnsafeRawBufferPointer(start: nil, count: 0) }
        if state == .handshaking {
            let mark = outgoingCount
            let result = SSL_do_handshake(ssl)
            guard result == 1 else { return try wait(after: result, "TLS handshake failed") }
            state = .established
            if isServer { handOver(recordsWrittenFrom: mark) }
            if !early.isEmpty {
                let pending = early
                early = []
                try pending.withUnsafeBytes { try send($0) }
            }
            if records != nil {
                // What followed the client's Finished is the first of its records.
                let rest = UnsafeRawBufferPointer(rebasing: bytes[inputRead...])
                input = UnsafeRawBufferPointer(start: nil, count: 0)
                return try openRecords(rest, scratch: scratch, deliver: deliver)
            }
        }
        guard let base = scratch.baseAddress else { return }
        while true {
            let count = SSL_read(ssl, base, Int32(clamping: scratch.count))
            guard count > 0 else { return try wait(after: count, "TLS read failed") }
            guard deliver(UnsafeRawBufferPointer(start: base, count: Int(count))) else {
                if inputRead < input.count && state != .failed { leftover = Array(input[inputRead...]) }
                return
            }
            // Another SSL_read would only find out that nothing is left.
            if inputRead == input.count && SSL_has_pending(ssl) == 0 { return }
        }
    }

    /// True when the two regions share a byte.
    private static func overlap(_ bytes: UnsafeRawBufferPointer, _ scratch: UnsafeMutableRawBufferPointer) -> Bool {
        guard let a = bytes.baseAddress, let b = scratch.baseAddress, !bytes.isEmpty, !scratch.isEmpty else { return false }
        return a < UnsafeRawPointer(b) + scratch.count && UnsafeRawPointer(b) < a + bytes.count
    }

    public func send(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        switch state {
        case .handshaking:
            early.append(contentsOf: bytes)
        case .established:
            if let records {
                guard records.seal(bytes, reserve: reserveOutgoing) else { throw fail("TLS write failed") }
                return
            }
            guard let ssl else { return }
            // Our BIO takes everything, so one call writes it all (or fails; `fail` then
            // reads and clears the error queue).
            let written = SSL_write(ssl, base, Int32(clamping: bytes.count))
            guard written == Int32(clamping: bytes.count) else { throw fail("TLS write failed") }
        case .outputFinished, .failed:
            return
        }
    }

    public func finishOutput() {
        if state == .established {
            if let records {
                _ = records.sendAlert(TLS13RecordLayer.Alert.closeNotify, reserve: reserveOutgoing)
            } else if let ssl {
                _ = SSL_shutdown(ssl) // queues close_notify; we do not wait for the peer's
                ERR_clear_error()
            }
        }
        if state != .failed { state = .outputFinished }
    }

    public var hasOutput: Bool { outgoing != nil }

    public func readOutput(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let outgoing, let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        let count = min(buffer.count, outgoingCount - outgoingTaken)
        base.copyMemory(from: outgoing + outgoingTaken, byteCount: count)
        outgoingTaken += count
        if outgoingTaken == outgoingCount { releaseOutgoing() }
        return count
    }

    // MARK: errors

    /// After a call that did not complete: fine if OpenSSL only needs more input (or the peer
    /// sent close_notify); otherwise the session has failed.
    private func wait(after result: Int32, _ what: String) throws {
        switch SSL_get_error(ssl.unsafelyUnwrapped, result) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE, SSL_ERROR_ZERO_RETURN:
            return
        default:
            throw fail(what)
        }
    }

    func fail(_ what: String) -> TLSError {
        state = .failed
        early = []
        let error = TLSError.openSSL(what) // also clears this thread's error queue for the next session
        onFailure?(error)
        onFailure = nil
        return error
    }
}
