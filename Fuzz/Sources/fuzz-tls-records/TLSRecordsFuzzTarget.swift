import FuzzSupport
@testable import TLS

/// The server's own TLS 1.3 records past the AEAD: each record's inner plaintext (content,
/// content type, padding) comes from the input and is sealed with the client's keys, so the
/// fuzzer reaches what only an authentic record can hold: alerts, KeyUpdate cut anywhere,
/// padding, content types the standard forbids.
///
/// Input: a suite byte, then records, each a length byte n, n bytes of inner plaintext, and
/// a padding byte (0xF0 and above add that many times 1,100 zero bytes, enough to overflow).
///
/// Invariants:
/// - a record delivers data only when its content type is application_data, and exactly its
///   content (type and padding removed); padding alone is refused, and so is an inner
///   plaintext (content, type and padding) over 2^14 + 1 bytes;
/// - close_notify comes only from an alert record, and nothing is read after it;
/// - a complete KeyUpdate that asks for an answer is answered with one that does not, which
///   opens with the server's keys as the client keeps them, and what follows opens with the
///   next keys.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTLSRecords(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let suite = TLS13CipherSuite(code: 0x1301 + UInt16(input.byte() % 3))!
    let expander = TLS13KeyExpander(suite)!
    let clientSecret = [UInt8](repeating: 1, count: suite.hashLength)
    let serverSecret = [UInt8](repeating: 2, count: suite.hashLength)
    let layer = TLS13RecordLayer(
        readKeys: TLS13TrafficKeys(suite: suite, secret: clientSecret, sequence: 0, encrypts: false, expander: expander)!,
        writeKeys: TLS13TrafficKeys(suite: suite, secret: serverSecret, sequence: 0, encrypts: true, expander: expander)!)
    var clientWrite = TLS13TrafficKeys(suite: suite, secret: clientSecret, sequence: 0, encrypts: true, expander: expander)!
    var clientRead = TLS13TrafficKeys(suite: suite, secret: serverSecret, sequence: 0, encrypts: false, expander: expander)!
    let output = Output()
    var plaintext = [UInt8](repeating: 0, count: TLS13RecordLayer.maxOpened)
    var handshake: [UInt8] = [] // handshake bytes the server has taken since the last KeyUpdate

    while input.offset < input.bytes.count {
        var inner: [UInt8] = (0..<Int(input.byte())).map { _ in input.byte() }
        let padding = input.byte()
        if padding >= 0xF0 { inner += [UInt8](repeating: 0, count: Int(padding - 0xF0) * 1100) }
        let body = inner.count + TLS13TrafficKeys.tagLength
        guard body <= Int(UInt16.max) else { continue }
        var record = [23, 3, 3, UInt8(body >> 8), UInt8(body & 0xff)] + inner + [UInt8](repeating: 0, count: TLS13TrafficKeys.tagLength)
        let sealed = record.withUnsafeMutableBytes { clientWrite.seal(record: $0.baseAddress!, count: inner.count) }
        invariant(sealed, "the client's AEAD failed")

        // What the record must come to, worked out apart from the layer.
        let end = (inner.lastIndex { $0 != 0 } ?? -1) + 1
        let type: UInt8? = end > 0 ? inner[end - 1] : nil
        let content = Array(inner[..<max(end - 1, 0)])
        let closedBefore = layer.peerClosed
        output.count = 0

        let result: TLS13RecordLayer.Opened
        do {
            let length = try record.withUnsafeBytes { try TLS13RecordLayer.recordLength(at: $0) }
            invariant(length == record.count, "a whole record measured \(String(describing: length)) of \(record.count) bytes")
            result = try record.withUnsafeBytes { bytes in
                try plaintext.withUnsafeMutableBytes { buffer in
                    try layer.open(record: bytes, into: buffer.baseAddress!, reserve: output.reserve)
                }
            }
        } catch {
            invariant(body > TLS13RecordLayer.maxBody || type != TLS13RecordLayer.ContentType.applicationData
                      || inner.count > TLS13RecordLayer.maxPlaintext + 1 || !handshake.isEmpty,
                      "a record of application data refused: \(error)")
            return 0 // a refused record ends the session
        }
        invariant(body <= TLS13RecordLayer.maxBody, "a record of \(body) bytes accepted")
        if closedBefore {
            invariant(result == .nothing && output.count == 0, "a record read after close_notify")
            continue
        }
        invariant(inner.count <= TLS13RecordLayer.maxPlaintext + 1, "\(inner.count) bytes of content, type and padding accepted")
        switch result {
        case .data(let count):
            invariant(type == TLS13RecordLayer.ContentType.applicationData && count == content.count
                      && plaintext[..<count].elementsEqual(content), "data that is not the record's content")
        case .closed:
            invariant(type == TLS13RecordLayer.ContentType.alert && content.count == 2 && content[1] == 0, "close_notify from \(inner)")
        case .nothing:
            invariant(type != nil, "padding alone accepted")
            if type == TLS13RecordLayer.ContentType.applicationData { invariant(content.isEmpty, "data not delivered") }
            if type == TLS13RecordLayer.ContentType.handshake {
                handshake += content
                invariant(handshake.count <= 5, "a handshake message longer than a KeyUpdate accepted")
                if handshake.count == 5 {
                    invariant(handshake[0] == 24 && handshake[1...3] == [0, 0, 1] && handshake[4] <= 1, "not a KeyUpdate: \(handshake)")
                    invariant(clientWrite.update(), "the client's keys did not update")
                    if handshake[4] == 1 {
                        invariant(output.opened(with: &clientRead) == [[24, 0, 0, 1, 0, 22]], "no KeyUpdate answered")
                        invariant(clientRead.update(), "the client's read keys did not update")
                    } else {
                        invariant(output.count == 0, "a KeyUpdate answered that asked for nothing")
                    }
                    handshake = []
                }
            }
        }
    }
    return 0
}

/// Where the server's answers go.
final class Output {
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 8)
    var count = 0

    deinit { buffer.deallocate() }

    func reserve(_ size: Int) -> UnsafeMutableRawPointer? {
        guard count + size <= 1 << 16 else { return nil }
        defer { count += size }
        return buffer + count
    }

    /// The inner plaintexts of the records written, opened with `keys`.
    func opened(with keys: inout TLS13TrafficKeys) -> [[UInt8]] {
        var records: [[UInt8]] = []
        var offset = 0
        while offset + 5 <= count {
            let length = 5 + (Int(buffer.load(fromByteOffset: offset + 3, as: UInt8.self)) << 8
                | Int(buffer.load(fromByteOffset: offset + 4, as: UInt8.self)))
            guard offset + length <= count else { return records + [[]] }
            var inner = [UInt8](repeating: 0, count: length - 5 - TLS13TrafficKeys.tagLength)
            let ok = inner.withUnsafeMutableBytes {
                keys.open(record: UnsafeRawBufferPointer(start: buffer + offset, count: length), into: $0.baseAddress!)
            }
            records.append(ok ? inner : [])
            offset += length
        }
        return records
    }
}
