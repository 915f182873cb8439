import COpenSSL

/// How a server session leaves OpenSSL's record layer once its TLS 1.3 handshake is over.
///
/// OpenSSL 3.0 has no call that hands over the traffic secrets, but it reports each one to
/// the context's key-log callback as it derives them; the session keeps the two application
/// secrets until the handshake ends, builds `TLS13RecordLayer` from them and frees the `SSL`.
/// The record numbers must match OpenSSL's: the server reads one record at a time while it
/// handshakes (read-ahead off), so nothing after the client's Finished has been read (the
/// client's records start at 0), and the records the last handshake step wrote are the
/// session tickets, already under the server's application keys (ours start after them).
/// When any of that does not hold (TLS 1.2, a record of another kind), OpenSSL keeps the
/// session, with read-ahead on.
extension TLSSession {
    /// After the server's handshake completed; `mark` is where in `outgoing` the last step
    /// started writing.
    func handOver(recordsWrittenFrom mark: Int) {
        defer { forgetTrafficSecrets() }
        guard let ssl else { return }
        guard SSL_version(ssl) == TLS1_3_VERSION, SSL_has_pending(ssl) == 0,
              let cipher = SSL_get_current_cipher(ssl),
              let suite = TLS13CipherSuite(code: SSL_CIPHER_get_protocol_id(cipher)),
              let tickets = protectedRecords(from: mark),
              let expander = TLS13KeyExpander(suite),
              let readKeys = TLS13TrafficKeys(suite: suite, secret: clientTrafficSecret, sequence: 0, encrypts: false, expander: expander),
              let writeKeys = TLS13TrafficKeys(suite: suite, secret: serverTrafficSecret, sequence: UInt64(tickets), encrypts: true,
                                               expander: expander)
        else {
            SSL_set_read_ahead(ssl, 1) // read as much as our BIO holds in one call
            ERR_clear_error()
            return
        }
        records = TLS13RecordLayer(readKeys: readKeys, writeKeys: writeKeys)
        SSL_free(ssl)
        self.ssl = nil
    }

    /// How many records `outgoing` holds from `mark` on, when all are protected records
    /// (outer type application_data) that end where it does; nil otherwise.
    private func protectedRecords(from mark: Int) -> Int? {
        guard mark <= outgoingCount else { return nil }
        guard let outgoing else { return mark == 0 ? 0 : nil }
        var offset = mark
        var count = 0
        while offset < outgoingCount {
            let rest = UnsafeRawBufferPointer(start: outgoing + offset, count: outgoingCount - offset)
            guard let length = try? TLS13RecordLayer.recordLength(at: rest) else { return nil }
            offset += length
            count += 1
        }
        return offset == outgoingCount ? count : nil
    }

    /// Keeps the application traffic secret a key-log `line` names ("LABEL client-random
    /// secret", in hex); OpenSSL logs five secrets per handshake.
    func noteKeyLog(_ line: UnsafePointer<CChar>) {
        let labelLength = 24 // "CLIENT_TRAFFIC_SECRET_0 "
        guard strlen(line) > labelLength, let space = strrchr(line, 0x20) else { return }
        let isClient = memcmp(line, "CLIENT_TRAFFIC_SECRET_0 ", labelLength) == 0
        guard isClient || memcmp(line, "SERVER_TRAFFIC_SECRET_0 ", labelLength) == 0 else { return }
        var secret = [UInt8](repeating: 0, count: 64) // SHA-384's 48 bytes at most
        var length = 0
        guard OPENSSL_hexstr2buf_ex(&secret, secret.count, &length, space + 1, 0) == 1 else { return }
        secret.removeSubrange(length...)
        if isClient { clientTrafficSecret = secret } else { serverTrafficSecret = secret }
    }

    func forgetTrafficSecrets() {
        wipe(&clientTrafficSecret)
        wipe(&serverTrafficSecret)
    }
}

/// The server context's key-log callback: hands the line to the session whose BIO it is.
func sessionKeyLog(_ ssl: OpaquePointer?, _ line: UnsafePointer<CChar>?) {
    guard let line, let bio = SSL_get_rbio(ssl), let data = BIO_get_data(bio) else { return }
    Unmanaged<TLSSession>.fromOpaque(data).takeUnretainedValue().noteKeyLog(line)
}
