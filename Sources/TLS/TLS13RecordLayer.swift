/// TLS 1.3 records after the handshake (RFC 8446 §5), protected with the traffic keys OpenSSL
/// derived, once its `SSL` is freed: an idle server session then holds two AEAD contexts and
/// two secrets instead of OpenSSL's session (about 14 KiB), and a record costs one AEAD call
/// instead of OpenSSL's record layer around it. What TLS 1.3 allows once the handshake is
/// over is handled here: application data, alerts, and KeyUpdate (§4.6.3). Loop thread only.
final class TLS13RecordLayer {
    /// Why a record was refused: the alert to send (none when the peer sent a fatal one) and
    /// a line for logs.
    struct Refusal: Error {
        let alert: UInt8?
        let reason: String
    }

    /// Alert descriptions (RFC 8446 §6).
    enum Alert {
        static let closeNotify: UInt8 = 0
        static let unexpectedMessage: UInt8 = 10
        static let badRecordMAC: UInt8 = 20
        static let recordOverflow: UInt8 = 22
        static let illegalParameter: UInt8 = 47
        static let decodeError: UInt8 = 50
        static let userCanceled: UInt8 = 90
    }

    /// Content types (RFC 8446 §5.1).
    enum ContentType {
        static let alert: UInt8 = 21
        static let handshake: UInt8 = 22
        static let applicationData: UInt8 = 23
    }

    /// What one opened record came to.
    enum Opened: Equatable {
        /// Application data: this many bytes at the start of the plaintext buffer.
        case data(Int)
        /// Nothing to deliver (a KeyUpdate, an empty record, a warning alert).
        case nothing
        /// The peer sent close_notify: nothing after it is read.
        case closed
    }

    static let maxPlaintext = 1 << 14
    /// The largest record body allowed (§5.2).
    static let maxBody = maxPlaintext + 256
    /// Room the largest record needs once opened (its body less the tag).
    static let maxOpened = maxBody - TLS13TrafficKeys.tagLength
    /// Header, content type byte and tag around a record's plaintext.
    static let overhead = 5 + 1 + TLS13TrafficKeys.tagLength

    private var readKeys: TLS13TrafficKeys
    private var writeKeys: TLS13TrafficKeys
    /// The start of a post-handshake message whose record ended inside it (at most 4 bytes).
    private var handshakeBytes: [UInt8] = []
    private(set) var peerClosed = false

    init(readKeys: consuming TLS13TrafficKeys, writeKeys: consuming TLS13TrafficKeys) {
        self.readKeys = readKeys
        self.writeKeys = writeKeys
    }

    /// The whole length (header included) of the record that starts `bytes`; nil while its
    /// header is incomplete.
    static func recordLength(at bytes: UnsafeRawBufferPointer) throws(Refusal) -> Int? {
        guard bytes.count >= 5 else { return nil }
        // Once the handshake is over every record is protected and typed application_data;
        // the version field is ignored (§5.1).
        guard bytes[0] == ContentType.applicationData else {
            throw Refusal(alert: Alert.unexpectedMessage, reason: "an unprotected record (type \(bytes[0])) after the handshake")
        }
        let length = Int(bytes[3]) << 8 | Int(bytes[4])
        guard length <= maxBody else { throw Refusal(alert: Alert.recordOverflow, reason: "a record of \(length) bytes") }
        guard length > TLS13TrafficKeys.tagLength else { throw Refusal(alert: Alert.decodeError, reason: "a record too short to hold a tag") }
        return 5 + length
    }

    /// Opens one whole record into `plaintext` (room for its body less the tag) and acts on
    /// what it holds; a KeyUpdate that asks for ours is answered through `reserve`, which
    /// gives room for that many bytes of output.
    func open(record: UnsafeRawBufferPointer, into plaintext: UnsafeMutableRawPointer,
              reserve: (Int) -> UnsafeMutableRawPointer?) throws(Refusal) -> Opened {
        guard !peerClosed else { return .nothing }
        guard readKeys.open(record: record, into: plaintext) else {
            throw Refusal(alert: Alert.badRecordMAC, reason: "a record did not authenticate")
        }
        // Content, type and padding together may not pass 2^14 + 1 bytes (§5.4), however
        // little of it is content.
        var end = record.count - 5 - TLS13TrafficKeys.tagLength
        guard end <= Self.maxPlaintext + 1 else {
            throw Refusal(alert: Alert.recordOverflow, reason: "a record of \(end) bytes with its padding")
        }
        // The content type is the last byte that is not padding (§5.4).
        let bytes = plaintext.assumingMemoryBound(to: UInt8.self)
        while end > 0 && bytes[end - 1] == 0 { end -= 1 }
        guard end > 0 else { throw Refusal(alert: Alert.unexpectedMessage, reason: "a record of padding alone") }
        let type = bytes[end - 1]
        let content = UnsafeRawBufferPointer(start: plaintext, count: end - 1)
        if type != ContentType.handshake && !handshakeBytes.isEmpty {
            throw Refusal(alert: Alert.unexpectedMessage, reason: "a record inside a handshake message")
        }
        switch type {
        case ContentType.applicationData:
            return content.isEmpty ? .nothing : .data(content.count)
        case ContentType.alert:
            return try receiveAlert(content)
        case ContentType.handshake:
            try receiveHandshake(content, reserve: reserve)
            return .nothing
        default:
            throw Refusal(alert: Alert.unexpectedMessage, reason: "a record of content type \(type)")
        }
    }

    private func receiveAlert(_ content: UnsafeRawBufferPointer) throws(Refusal) -> Opened {
        // An alert record with nothing in it is a zero-length fragment, which only application
        // data may be (§5.1): unexpected_message, as OpenSSL answers it.
        guard !content.isEmpty else { throw Refusal(alert: Alert.unexpectedMessage, reason: "an empty alert record") }
        guard content.count == 2 else { throw Refusal(alert: Alert.decodeError, reason: "an alert of \(content.count) bytes") }
        switch content[1] {
        case Alert.closeNotify:
            peerClosed = true
            return .closed
        case Alert.userCanceled:
            return .nothing // close_notify follows
        default:
            throw Refusal(alert: nil, reason: "the peer sent alert \(content[1])")
        }
    }

    /// Only KeyUpdate may follow the handshake from a client (no post-handshake authentication
    /// was asked for); it must end with its record, since the keys change after it (§5.1).
    private func receiveHandshake(_ content: UnsafeRawBufferPointer, reserve: (Int) -> UnsafeMutableRawPointer?) throws(Refusal) {
        guard !content.isEmpty else { throw Refusal(alert: Alert.unexpectedMessage, reason: "an empty handshake record") }
        handshakeBytes.append(contentsOf: content)
        if handshakeBytes.count >= 4 {
            guard handshakeBytes[0] == 24 else {
                throw Refusal(alert: Alert.unexpectedMessage, reason: "handshake message \(handshakeBytes[0]) after the handshake")
            }
            guard handshakeBytes[1] == 0, handshakeBytes[2] == 0, handshakeBytes[3] == 1 else {
                throw Refusal(alert: Alert.decodeError, reason: "a KeyUpdate of the wrong length")
            }
        }
        guard handshakeBytes.count >= 5 else { return }
        guard handshakeBytes.count == 5 else {
            throw Refusal(alert: Alert.unexpectedMessage, reason: "a record goes on after a KeyUpdate")
        }
        let requested = handshakeBytes[4]
        handshakeBytes = []
        guard requested <= 1 else { throw Refusal(alert: Alert.illegalParameter, reason: "a KeyUpdate asking \(requested)") }
        guard readKeys.update() else { throw Refusal(alert: Alert.decodeError, reason: "the read keys could not be updated") }
        if requested == 1 {
            guard sendKeyUpdate(requestingPeers: false, reserve: reserve) else {
                throw Refusal(alert: nil, reason: "the write keys could not be updated")
            }
        }
    }

    /// Sends a KeyUpdate, then protects what follows with the next keys; `requestingPeers`
    /// asks the peer to change its own.
    func sendKeyUpdate(requestingPeers: Bool, reserve: (Int) -> UnsafeMutableRawPointer?) -> Bool {
        let message: [UInt8] = [24, 0, 0, 1, requestingPeers ? 1 : 0]
        let sealed = message.withUnsafeBytes { seal($0, type: ContentType.handshake, reserve: reserve) }
        return sealed && writeKeys.update()
    }

    /// Sends an alert (close_notify, or a fatal one before closing).
    func sendAlert(_ description: UInt8, reserve: (Int) -> UnsafeMutableRawPointer?) -> Bool {
        let level: UInt8 = description == Alert.closeNotify || description == Alert.userCanceled ? 1 : 2
        return [level, description].withUnsafeBytes { seal($0, type: ContentType.alert, reserve: reserve) }
    }

    /// Protects `bytes` as records of `type`, each at most 16 KiB of plaintext, written where
    /// `reserve` gives room; false when it gives none or the AEAD fails.
    func seal(_ bytes: UnsafeRawBufferPointer, type: UInt8 = ContentType.applicationData,
              reserve: (Int) -> UnsafeMutableRawPointer?) -> Bool {
        var start = 0
        repeat {
            let count = min(bytes.count - start, Self.maxPlaintext)
            guard let record = reserve(count + Self.overhead) else { return false }
            let body = count + 1 + TLS13TrafficKeys.tagLength
            record.storeBytes(of: ContentType.applicationData, as: UInt8.self)
            record.storeBytes(of: UInt16(0x0303).bigEndian, toByteOffset: 1, as: UInt16.self)
            record.storeBytes(of: UInt16(body).bigEndian, toByteOffset: 3, as: UInt16.self)
            if count > 0, let base = bytes.baseAddress { (record + 5).copyMemory(from: base + start, byteCount: count) }
            record.storeBytes(of: type, toByteOffset: 5 + count, as: UInt8.self)
            guard writeKeys.seal(record: record, count: count + 1) else { return false }
            start += count
        } while start < bytes.count
        return true
    }
}

