// The general path of `WebSocketProtocolMachine`: a frame's header rules, its payload taken
// in pieces, and what each kind of frame does when it ends.
extension WebSocketProtocolMachine {
    /// The rules that two header bytes already decide. Returns the close code on violation.
    func checkFirstTwoBytes() -> WebSocketCloseCode? {
        let (first, second) = withUnsafeBytes(of: frame) { ($0[0], $0[1]) }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else { return .protocolError }
        // RSV2 and RSV3 are never negotiated; RSV1 only with permessage-deflate, and only on
        // the first frame of a data message (RFC 7692 section 6.1).
        let reserved = first & 0x70
        if reserved != 0 {
            guard reserved == 0x40, inflater != nil, opcode == .text || opcode == .binary else { return .protocolError }
        }
        let fin = first & 0x80 != 0
        let masked = second & 0x80 != 0
        let length7 = Int(second & 0x7F)
        if configuration.requiresMasking && !masked { return .protocolError }
        if opcode.isControl {
            guard fin, length7 <= 125 else { return .protocolError }
            return nil
        }
        switch opcode {
        case .continuation:
            guard messageOpcode != nil else { return .protocolError }
        default:
            guard messageOpcode == nil else { return .protocolError }
            if opcode == .binary && !configuration.acceptsBinary { return .unsupportedData }
        }
        // Fail fast on a small frame that already breaks the limit.
        if length7 < 126 && length7 > configuration.maxMessageSize - message.count { return .messageTooBig }
        return nil
    }

    /// The header bytes collected so far, kept in the first 14 bytes of `frame` (its integer
    /// fields; `WebSocketLayoutTests` pins that they come first).
    mutating func withHeaderBytes<Result>(_ body: (UnsafeMutableRawBufferPointer) -> Result) -> Result {
        withUnsafeMutableBytes(of: &frame) { body(UnsafeMutableRawBufferPointer(rebasing: $0[0 ..< WebSocketFrameHeader.maxSize])) }
    }

    /// The header is complete: validate its length and start reading the payload.
    mutating func beginPayload(_ onEvent: (Event) -> Void) {
        let collected = Int(headerCount)
        let parsed = withHeaderBytes { storage in
            WebSocketFrameHeader.parse(UnsafeRawBufferPointer(rebasing: storage[0 ..< collected]))
        }
        headerCount = 0
        headerNeeded = 2
        guard case .header(let header, _) = parsed, let opcode = header.opcode else {
            finish(onEvent, .fail(.protocolError))   // a 64-bit length with its top bit set
            return
        }
        if !opcode.isControl {
            guard header.payloadLength <= UInt64(configuration.maxMessageSize - message.count) else {
                finish(onEvent, .fail(.messageTooBig))
                return
            }
            if opcode != .continuation {
                messageOpcode = opcode
                messageCompressed = header.reservedBits & 0x4 != 0
                utf8.reset()
            }
        }
        // Within 32 bits: a data frame within the limit, a control frame at most 125 bytes.
        frame = Frame(length: UInt32(header.payloadLength), key: header.maskingKey, opcode: opcode, fin: header.fin)
        phase = .payload
        if header.payloadLength == 0 {
            endFrame(onEvent)
        }
    }

    /// Appends a control frame's payload after the message being assembled (a control frame
    /// may come between a message's fragments), unmasked.
    mutating func storeControlPayload(_ chunk: UnsafeRawBufferPointer) {
        let start = message.count
        let key = frame.key
        let offset = frame.offset
        if message.capacity == 0 { message.reserveCapacity(125) }
        message.append(contentsOf: chunk.assumingMemoryBound(to: UInt8.self))
        message.withUnsafeMutableBytes { all in
            key?.apply(to: UnsafeMutableRawBufferPointer(rebasing: all[start...]), frameOffset: UInt64(offset))
        }
        frame.offset += UInt32(chunk.count)
    }

    /// Appends unmasked data; returns false when a text message stops being valid UTF-8.
    mutating func appendMessagePayload(_ chunk: UnsafeRawBufferPointer) -> Bool {
        let start = message.count
        if frame.offset == 0 {
            // Room for the whole frame at its first bytes, growing geometrically: many tiny
            // fragments must not cost a copy each.
            let needed = start + Int(frame.length)
            if needed > message.capacity {
                message.reserveCapacity(min(configuration.maxMessageSize, max(needed, message.capacity * 2)))
            }
        }
        message.append(contentsOf: chunk.assumingMemoryBound(to: UInt8.self))   // a memcpy
        let key = frame.key
        let offset = frame.offset
        // A compressed message is validated once inflated.
        let isText = messageOpcode == .text && !messageCompressed
        frame.offset += UInt32(chunk.count)
        return message.withUnsafeMutableBytes { all in
            let fresh = UnsafeMutableRawBufferPointer(rebasing: all[start...])
            key?.apply(to: fresh, frameOffset: UInt64(offset))
            return !isText || utf8.validate(UnsafeRawBufferPointer(fresh))
        }
    }

    mutating func endFrame(_ onEvent: (Event) -> Void) {
        phase = .header
        switch frame.opcode {
        case .ping:
            withControlPayload { onEvent(.sendPong(payload: $0)) }
        case .pong:
            withControlPayload { onEvent(.pongReceived(payload: $0)) }
        case .close:
            endCloseFrame(onEvent)
        case .text, .binary, .continuation:
            guard frame.fin, let opcode = messageOpcode else { return }
            if messageCompressed {
                if let failure = deliverCompressed(opcode, onEvent) {
                    finish(onEvent, .fail(failure))
                    return
                }
            } else {
                if opcode == .text && !utf8.isComplete {
                    finish(onEvent, .fail(.invalidPayload))   // a sequence cut off at the end
                    return
                }
                message.withUnsafeBytes { bytes in
                    onEvent(opcode == .text ? .text(bytes) : .binary(bytes))
                }
            }
            messageOpcode = nil
            messageCompressed = false
            message.removeAll(keepingCapacity: message.capacity <= Self.retainedMessageCapacity)
        }
    }

    /// Inflates the joined payload of a compressed message and reports it; returns the
    /// close code instead when it is too big or not valid (DEFLATE data, or UTF-8 for text).
    func deliverCompressed(_ opcode: WebSocketOpcode, _ onEvent: (Event) -> Void) -> WebSocketCloseCode? {
        message.withUnsafeBytes {
            Self.deliverCompressed(opcode, $0, inflater: inflater, limit: configuration.maxMessageSize, onEvent)
        }
    }

    static func deliverCompressed(_ opcode: WebSocketOpcode, _ compressed: UnsafeRawBufferPointer,
                                          inflater: PerMessageInflater?, limit: Int,
                                          _ onEvent: (Event) -> Void) -> WebSocketCloseCode? {
        guard let inflater else { return .protocolError }
        return inflater.inflate(compressed, limit: limit) { outcome -> WebSocketCloseCode? in
            switch outcome {
            case .tooBig:
                return .messageTooBig
            case .corrupt:
                return .invalidPayload
            case .message(let bytes):
                if opcode == .text {
                    guard UTF8Validator.isValid(bytes) else { return .invalidPayload }
                    onEvent(.text(bytes))
                } else {
                    onEvent(.binary(bytes))
                }
                return nil
            }
        }
    }

    mutating func endCloseFrame(_ onEvent: (Event) -> Void) {
        let length = Int(frame.length)
        var failure: WebSocketCloseCode?
        var code: WebSocketCloseCode?
        readControlPayload { payload in
            if length == 1 {
                failure = .protocolError
            } else if length >= 2 {
                let candidate = WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
                if !candidate.isValidOnWire {
                    failure = .protocolError
                } else if !UTF8Validator.isValid(UnsafeRawBufferPointer(rebasing: payload[2 ..< length])) {
                    failure = .invalidPayload
                } else {
                    code = candidate
                }
            }
        }
        if let failure {
            finish(onEvent, .fail(failure))
            return
        }
        phase = .finished
        readControlPayload { payload in
            onEvent(.peerClosed(code: code, reason: UnsafeRawBufferPointer(rebasing: payload[min(2, length)...])))
        }
        releaseMessage()
    }

    /// The control frame's payload, then taken off the message buffer.
    mutating func withControlPayload(_ body: (UnsafeRawBufferPointer) -> Void) {
        readControlPayload(body)
        // An empty payload (every pong to the server's pings) leaves the buffer untouched.
        if frame.length > 0 { message.removeLast(Int(frame.length)) }
    }

    /// The control frame's payload: the message buffer's last `frame.length` bytes.
    func readControlPayload(_ body: (UnsafeRawBufferPointer) -> Void) {
        let length = Int(frame.length)
        guard length > 0 else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        message.withUnsafeBytes { all in
            body(UnsafeRawBufferPointer(rebasing: all[(all.count - length)...]))
        }
    }
}
