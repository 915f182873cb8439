import COpenSSL
import EventLoop

/// TLS on one connection, driven through memory BIOs: ciphertext from the socket goes into
/// one BIO, ciphertext to send comes out of the other, so OpenSSL never touches the socket and
/// never blocks the loop. The server side plugs into a `TCPConnection` as its filter; the
/// client side (benchmarks) is driven the same way after `startHandshake()`. Loop thread only.
public final class TLSSession: TCPStreamFilter {
    private enum State {
        /// Before the handshake completed; written bytes wait in `early`.
        case handshaking
        /// Records flow both ways.
        case established
        /// Our output ended (close_notify sent if the handshake had completed).
        case outputFinished
        /// A fatal error: only the alert, if any, is left to send.
        case failed
    }

    private let ssl: OpaquePointer
    /// Ciphertext received, read by OpenSSL (owned by `ssl`).
    private let input: OpaquePointer
    /// Ciphertext to send, written by OpenSSL (owned by `ssl`).
    private let output: OpaquePointer
    private var state = State.handshaking
    private var early: [UInt8] = []
    /// Told once why the session failed (a handshake refused, a bad record), for logs.
    public var onFailure: ((TLSError) -> Void)?

    /// A session of `context` (an SSL_CTX, which the session then keeps alive itself).
    init(context: OpaquePointer, isServer: Bool) throws {
        ERR_clear_error()
        guard let ssl = SSL_new(context) else { throw TLSError.openSSL("cannot create a TLS session") }
        guard let input = BIO_new(BIO_s_mem()), let output = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw TLSError.openSSL("cannot create TLS buffers")
        }
        // An empty buffer means "wait for more", not end of stream.
        _ = rxlive_BIO_set_mem_eof_return(input, -1)
        _ = rxlive_BIO_set_mem_eof_return(output, -1)
        SSL_set_bio(ssl, input, output)
        if isServer { SSL_set_accept_state(ssl) } else { SSL_set_connect_state(ssl) }
        self.ssl = ssl
        self.input = input
        self.output = output
    }

    deinit { SSL_free(ssl) }

    /// Client side: produces the ClientHello (read it with `readOutput`).
    public func startHandshake() throws {
        guard state == .handshaking else { return }
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
        // SSL_get_error reads this thread's error queue: it must start empty.
        ERR_clear_error()
        // Take every byte first: `scratch` may be the very buffer `bytes` lies in.
        var offset = 0
        while offset < bytes.count {
            let written = BIO_write(input, bytes.baseAddress! + offset, Int32(clamping: bytes.count - offset))
            guard written > 0 else { throw fail("cannot buffer TLS input") }
            offset += Int(written)
        }
        if state == .handshaking {
            let result = SSL_do_handshake(ssl)
            guard result == 1 else { return try wait(after: result, "TLS handshake failed") }
            state = .established
            if !early.isEmpty {
                let pending = early
                early = []
                try pending.withUnsafeBytes { try send($0) }
            }
        }
        guard let base = scratch.baseAddress else { return }
        while true {
            let count = SSL_read(ssl, base, Int32(clamping: scratch.count))
            guard count > 0 else { return try wait(after: count, "TLS read failed") }
            guard deliver(UnsafeRawBufferPointer(start: base, count: Int(count))) else { return }
        }
    }

    public func send(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        switch state {
        case .handshaking:
            early.append(contentsOf: bytes)
        case .established:
            ERR_clear_error()
            // A memory BIO takes everything, so one call writes it all (or fails).
            let written = SSL_write(ssl, base, Int32(clamping: bytes.count))
            guard written == Int32(clamping: bytes.count) else { throw fail("TLS write failed") }
        case .outputFinished, .failed:
            return
        }
    }

    public func finishOutput() {
        if state == .established {
            _ = SSL_shutdown(ssl) // queues close_notify; we do not wait for the peer's
            ERR_clear_error()
        }
        if state != .failed { state = .outputFinished }
    }

    public func readOutput(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty, BIO_ctrl_pending(output) > 0 else { return 0 }
        let count = BIO_read(output, base, Int32(clamping: buffer.count))
        return count > 0 ? Int(count) : 0
    }

    // MARK: errors

    /// After a call that did not complete: fine if OpenSSL only needs more input (or the peer
    /// sent close_notify); otherwise the session has failed.
    private func wait(after result: Int32, _ what: String) throws {
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE, SSL_ERROR_ZERO_RETURN:
            return
        default:
            throw fail(what)
        }
    }

    private func fail(_ what: String) -> TLSError {
        state = .failed
        early = []
        let error = TLSError.openSSL(what) // also clears this thread's error queue for the next session
        onFailure?(error)
        onFailure = nil
        return error
    }
}
