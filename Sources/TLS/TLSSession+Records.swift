import COpenSSL

/// The session's own TLS 1.3 records, once `handOver` freed OpenSSL's `SSL`.
extension TLSSession {
    /// Opens the records in `bytes` (which does not overlap `scratch`), delivering their
    /// application data; a record cut short is kept for the next read.
    func openRecords(_ bytes: UnsafeRawBufferPointer, scratch: UnsafeMutableRawBufferPointer,
                     deliver: (UnsafeRawBufferPointer) -> Bool) throws {
        guard let records, let base = bytes.baseAddress else { return }
        var offset = 0
        do throws(TLS13RecordLayer.Refusal) {
            while offset < bytes.count, !records.peerClosed {
                let rest = UnsafeRawBufferPointer(start: base + offset, count: bytes.count - offset)
                guard let length = try TLS13RecordLayer.recordLength(at: rest), length <= rest.count else { break }
                let record = UnsafeRawBufferPointer(start: rest.baseAddress, count: length)
                offset += length
                let room = length - 5 - TLS13TrafficKeys.tagLength
                if room <= scratch.count, let plaintext = scratch.baseAddress {
                    // The usual case: the loop's scratch holds the largest record.
                    guard case .data(let count) = try records.open(record: record, into: plaintext, reserve: reserveOutgoing) else { continue }
                    guard deliver(UnsafeRawBufferPointer(start: plaintext, count: count)) else { break }
                } else {
                    let opened = UnsafeMutableRawPointer.allocate(byteCount: room, alignment: 1)
                    defer { opened.deallocate() }
                    guard case .data(let count) = try records.open(record: record, into: opened, reserve: reserveOutgoing) else { continue }
                    held = Array(UnsafeRawBufferPointer(start: opened, count: count))
                    guard deliverHeld(scratch: scratch, deliver: deliver) else { break }
                }
            }
        } catch {
            refuse(error, by: records)
            throw fail("TLS record refused: \(error.reason)")
        }
        if offset < bytes.count && !records.peerClosed && state != .failed {
            leftover = Array(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
    }

    /// Delivers `held` in pieces the size of `scratch`; false when the reader declined one
    /// (the rest stays held).
    func deliverHeld(scratch: UnsafeMutableRawBufferPointer, deliver: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        guard let base = scratch.baseAddress, !scratch.isEmpty else { return held.isEmpty }
        while !held.isEmpty {
            let count = min(scratch.count, held.count)
            held.withUnsafeBytes { base.copyMemory(from: $0.baseAddress.unsafelyUnwrapped, byteCount: count) }
            held.removeFirst(count)
            guard deliver(UnsafeRawBufferPointer(start: base, count: count)) else { return false }
        }
        return true
    }

    /// Sends the alert a refusal names before the session fails.
    private func refuse(_ refusal: TLS13RecordLayer.Refusal, by records: TLS13RecordLayer) {
        if let alert = refusal.alert, state == .established {
            _ = records.sendAlert(alert, reserve: reserveOutgoing)
        }
    }

    /// Asks for new traffic keys both ways (TLS 1.3 KeyUpdate, RFC 8446 §4.6.3): ours change
    /// after the message, and the peer answers with one of its own.
    /// - Throws: `TLSError` before the handshake completed, under TLS 1.2, or when OpenSSL fails.
    public func updateKeys() throws {
        guard state == .established else { throw TLSError(description: "no TLS session to update the keys of") }
        if let records {
            guard records.sendKeyUpdate(requestingPeers: true, reserve: reserveOutgoing) else { throw fail("TLS key update failed") }
        } else if let ssl {
            guard SSL_version(ssl) == TLS1_3_VERSION else { throw TLSError(description: "TLS 1.2 has no key update") }
            ERR_clear_error()
            // Queued by the first call, written by the second.
            guard SSL_key_update(ssl, SSL_KEY_UPDATE_REQUESTED) == 1, SSL_do_handshake(ssl) == 1 else {
                throw fail("TLS key update failed")
            }
        }
    }
}
