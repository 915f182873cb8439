import FuzzSupport
import WebSocket

/// The WebSocket receive path: the protocol machine fed frame sequences, with and without
/// permessage-deflate negotiated, split at fuzzed points.
///
/// Input: an options byte (deflate, binary accepted, message limit), a split-pattern byte,
/// then the stream of frames as a client sends them.
///
/// Invariants:
/// - the events do not depend on how the stream is split (fed whole or in pieces);
/// - text messages are valid UTF-8 (checked by Swift's own decoder), messages fit the
///   limit, control payloads fit 125 bytes, a close reason 123 and is UTF-8, a close code is
///   valid on the wire, and nothing follows `.peerClosed` or `.fail`;
/// - every delivered message, re-encoded as a client frame (compressed when deflate is on
///   and it fits), is delivered again unchanged by a fresh machine;
/// - every complete frame header in the stream, written again by `WebSocketFrameHeader`,
///   gives the same bytes when its length was encoded minimally (and parses back to the
///   same header otherwise); a whole masked frame re-encoded by `WebSocketFrameEncoder`
///   gives the same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocket(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let options = input.byte()
    let split = input.byte()
    let stream = input.rest()
    let limits = [0, 1, 2, 125, 126, 200, 65535, 65536, 1 << 20]
    let configuration = WebSocketProtocolMachine.Configuration(
        maxMessageSize: limits[Int(options >> 4) % limits.count],
        acceptsBinary: options & 0x02 == 0)
    let deflate = options & 0x01 != 0

    let whole = recordEvents(feeding: [stream[...]], configuration, deflate: deflate)
    let pattern = [split & 0x0F, split >> 4, 1, 3]
    let cut = recordEvents(feeding: pieces(of: stream, sizes: pattern), configuration, deflate: deflate)
    invariant(whole == cut, "events depend on the split: \(whole) vs \(cut)")
    checkEvents(whole, configuration)
    checkRoundTrip(whole, configuration, deflate: deflate)
    checkFrameHeaders(stream)
    return 0
}

/// An event with its bytes copied out of the machine's buffers.
enum RecordedEvent: Equatable {
    case text([UInt8])
    case binary([UInt8])
    case ping([UInt8])
    case pong([UInt8])
    case closed(code: UInt16?, reason: [UInt8])
    case fail(UInt16)
}

/// The inflater and deflater a loop shares between its connections: one each for the whole
/// run, as in the server (and making zlib streams per input would dominate the run time).
nonisolated(unsafe) let sharedInflater = PerMessageInflater()   // libFuzzer runs inputs on one thread
nonisolated(unsafe) let sharedDeflater = PerMessageDeflater()   // libFuzzer runs inputs on one thread

func recordEvents(feeding pieces: [ArraySlice<UInt8>], _ configuration: WebSocketProtocolMachine.Configuration,
            deflate: Bool) -> [RecordedEvent] {
    var machine = WebSocketProtocolMachine(configuration: configuration, inflater: deflate ? sharedInflater : nil)
    var recorded: [RecordedEvent] = []
    for piece in pieces {
        piece.withUnsafeBytes { bytes in
            machine.receive(bytes) { event in
                switch event {
                case .text(let bytes): recorded.append(.text(Array(bytes)))
                case .binary(let bytes): recorded.append(.binary(Array(bytes)))
                case .sendPong(let payload): recorded.append(.ping(Array(payload)))
                case .pongReceived(let payload): recorded.append(.pong(Array(payload)))
                case .peerClosed(let code, let reason): recorded.append(.closed(code: code?.rawValue, reason: Array(reason)))
                case .fail(let code): recorded.append(.fail(code.rawValue))
                }
            }
        }
    }
    if let last = recorded.last {
        switch last {
        case .closed, .fail: invariant(machine.isFinished, "a closing event left the machine running")
        default: invariant(!machine.isFinished, "the machine finished without a closing event")
        }
    }
    return recorded
}

func checkEvents(_ events: [RecordedEvent], _ configuration: WebSocketProtocolMachine.Configuration) {
    for (index, event) in events.enumerated() {
        let isLast = index == events.count - 1
        switch event {
        case .text(let bytes):
            invariant(String(validating: bytes, as: UTF8.self) != nil, "a text message is not UTF-8: \(bytes)")
            invariant(bytes.count <= configuration.maxMessageSize, "a text message passes the limit")
        case .binary(let bytes):
            invariant(configuration.acceptsBinary, "a binary message while binary is refused")
            invariant(bytes.count <= configuration.maxMessageSize, "a binary message passes the limit")
        case .ping(let payload), .pong(let payload):
            invariant(payload.count <= 125, "a control payload of \(payload.count) bytes")
        case .closed(let code, let reason):
            invariant(isLast, "an event after the close")
            invariant(reason.count <= 123, "a close reason of \(reason.count) bytes")
            invariant(String(validating: reason, as: UTF8.self) != nil, "a close reason that is not UTF-8")
            if let code { invariant(WebSocketCloseCode(rawValue: code).isValidOnWire, "close code \(code) accepted") }
            else { invariant(reason.isEmpty, "a reason without a code") }
        case .fail(let code):
            invariant(isLast, "an event after a failure")
            invariant([1002, 1003, 1007, 1009].contains(code), "failure code \(code)")
        }
    }
}

/// Each message, sent again as one masked frame (compressed with deflate on), comes out the same.
func checkRoundTrip(_ events: [RecordedEvent], _ configuration: WebSocketProtocolMachine.Configuration, deflate: Bool) {
    let key = WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D)
    for event in events {
        let opcode: WebSocketOpcode
        let message: [UInt8]
        switch event {
        case .text(let bytes): (opcode, message) = (.text, bytes)
        case .binary(let bytes): (opcode, message) = (.binary, bytes)
        default: continue
        }
        var frame: [UInt8] = []
        message.withUnsafeBytes { payload in
            WebSocketFrameEncoder.appendFrame(opcode: opcode, payload: payload, maskingKey: key, to: &frame)
        }
        invariant(recordEvents(feeding: [frame[...]], configuration, deflate: deflate) == [event],
                  "a message re-sent uncompressed is not delivered the same")
        guard deflate else { continue }
        let compressed: [UInt8]? = message.withUnsafeBytes { payload in
            sharedDeflater.compress(payload) { $0.map(Array.init) }
        }
        guard let compressed, compressed.count <= configuration.maxMessageSize else { continue }
        frame = []
        compressed.withUnsafeBytes { payload in
            WebSocketFrameEncoder.appendFrame(opcode: opcode, compressed: true, payload: payload, maskingKey: key, to: &frame)
        }
        invariant(recordEvents(feeding: [frame[...]], configuration, deflate: true) == [event],
                  "a message re-sent compressed is not delivered the same")
    }
}

/// Walks the stream frame by frame: each header re-encodes to its own bytes.
func checkFrameHeaders(_ stream: [UInt8]) {
    stream.withUnsafeBytes { all in
        var offset = 0
        while offset < all.count {
            let rest = UnsafeRawBufferPointer(rebasing: all[offset...])
            guard case .header(let header, let size) = WebSocketFrameHeader.parse(rest) else { return }
            invariant(size == WebSocketFrameHeader.size(secondByte: rest[1]), "a header of the wrong size")
            var written = [UInt8](repeating: 0, count: WebSocketFrameHeader.maxSize)
            let writtenSize = written.withUnsafeMutableBytes { header.write(into: $0) }
            guard let writtenSize else { return invariant(false, "a parsed header does not fit 14 bytes") }
            let minimal = writtenSize == size
            if minimal {
                invariant(Array(written[..<size]) == Array(rest[..<size]), "a header re-encodes differently")
            } else {
                let again = written.withUnsafeBytes { WebSocketFrameHeader.parse(UnsafeRawBufferPointer(rebasing: $0[..<writtenSize])) }
                invariant(again == .header(header, size: writtenSize), "a re-encoded header parses differently")
            }
            guard header.payloadLength <= UInt64(rest.count - size) else { return }
            let frameEnd = size + Int(header.payloadLength)
            // The whole frame, unmasked and encoded again, is the same bytes.
            if minimal, let key = header.maskingKey, let opcode = header.opcode, header.reservedBits & 0x3 == 0 {
                var payload = Array(rest[size..<frameEnd])
                payload.withUnsafeMutableBytes { key.apply(to: $0, frameOffset: 0) }
                var frame = [UInt8](repeating: 0, count: frameEnd)
                let frameSize = payload.withUnsafeBytes { payload in
                    frame.withUnsafeMutableBytes { target in
                        WebSocketFrameEncoder.writeFrame(opcode: opcode, fin: header.fin, compressed: header.reservedBits == 0x4,
                                                         payload: payload, maskingKey: key, into: target)
                    }
                }
                invariant(frameSize == frameEnd && frame == Array(rest[..<frameEnd]), "a frame re-encodes differently")
            }
            offset += frameEnd
        }
    }
}
