import COpenSSL
#if canImport(Glibc)
import Glibc
#endif

/// The BIO between OpenSSL and a session: reads take ciphertext from the bytes `receive` is
/// decoding (no copy into a buffer of OpenSSL's), writes append records to `outgoing`, which
/// `readOutput` empties and frees. A BIO_s_mem pair instead copied every byte once more each
/// way and kept buffers as large as the largest flight (the handshake's) for the session's life.
extension TLSSession {
    /// One method for every session, made once and never changed (OpenSSL only reads it).
    // nonisolated(unsafe): written once by the lazy global initialiser, read only after that.
    nonisolated(unsafe) static let bioMethod: OpaquePointer = {
        guard let method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "rxlive TLS session") else {
            fatalError("OpenSSL cannot make a BIO method")
        }
        _ = BIO_meth_set_read(method, sessionBIORead)
        _ = BIO_meth_set_write(method, sessionBIOWrite)
        _ = BIO_meth_set_ctrl(method, sessionBIOControl)
        _ = BIO_meth_set_create(method, sessionBIOCreate)
        return method
    }()

    /// Copies up to `count` unread input bytes to `destination`; 0 when none are left.
    func bioRead(into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        let taken = min(count, input.count - inputRead)
        guard taken > 0, let base = input.baseAddress else { return 0 }
        destination.copyMemory(from: base + inputRead, byteCount: taken)
        inputRead += taken
        return taken
    }

    /// Appends a record OpenSSL wrote; false when memory runs out.
    func bioWrite(_ bytes: UnsafeRawPointer, count: Int) -> Bool {
        guard let room = reserveOutgoing(count) else { return false }
        room.copyMemory(from: bytes, byteCount: count)
        return true
    }

    /// Room for `count` more bytes at the end of `outgoing`, counted as written; nil when
    /// memory runs out.
    func reserveOutgoing(_ count: Int) -> UnsafeMutableRawPointer? {
        let needed = outgoingCount + count
        if needed > outgoingCapacity {
            let capacity = max(needed, 2 * outgoingCapacity, 512)
            guard let grown = realloc(outgoing, capacity) else { return nil }
            outgoing = grown
            outgoingCapacity = capacity
        }
        let room = outgoing.unsafelyUnwrapped + outgoingCount
        outgoingCount = needed
        return room
    }

    /// Frees the outgoing buffer once everything in it was taken: an idle session holds none.
    func releaseOutgoing() {
        free(outgoing)
        outgoing = nil
        outgoingCount = 0
        outgoingCapacity = 0
        outgoingTaken = 0
    }

    /// Bytes written and not yet taken.
    var outgoingPending: Int { outgoingCount - outgoingTaken }
}

private func session(of bio: OpaquePointer?) -> TLSSession? {
    guard let data = BIO_get_data(bio) else { return nil }
    return Unmanaged<TLSSession>.fromOpaque(data).takeUnretainedValue()
}

private func sessionBIOCreate(_ bio: OpaquePointer?) -> Int32 {
    BIO_set_init(bio, 1)
    return 1
}

/// No input left means "wait for more", never end of stream (the connection reports EOF).
private func sessionBIORead(_ bio: OpaquePointer?, _ destination: UnsafeMutablePointer<CChar>?, _ count: Int32) -> Int32 {
    rxlive_BIO_clear_retry_flags(bio)
    guard let destination, count > 0, let session = session(of: bio) else { return 0 }
    let taken = session.bioRead(into: destination, count: Int(count))
    if taken == 0 {
        rxlive_BIO_set_retry_read(bio)
        return -1
    }
    return Int32(taken)
}

private func sessionBIOWrite(_ bio: OpaquePointer?, _ bytes: UnsafePointer<CChar>?, _ count: Int32) -> Int32 {
    rxlive_BIO_clear_retry_flags(bio)
    guard let bytes, count > 0 else { return 0 }
    guard let session = session(of: bio), session.bioWrite(bytes, count: Int(count)) else { return -1 }
    return count
}

private func sessionBIOControl(_ bio: OpaquePointer?, _ command: Int32, _ argument: Int, _ pointer: UnsafeMutableRawPointer?) -> Int {
    switch command {
    case BIO_CTRL_FLUSH:
        return 1 // records wait in `outgoing` until the connection takes them
    case BIO_CTRL_PENDING:
        return session(of: bio).map { $0.input.count - $0.inputRead } ?? 0
    case BIO_CTRL_WPENDING:
        return session(of: bio)?.outgoingPending ?? 0
    default:
        return 0
    }
}
