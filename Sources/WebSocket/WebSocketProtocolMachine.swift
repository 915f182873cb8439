/// The receiving side of an RFC 6455 connection as an explicit state machine.
///
/// Feed it the raw bytes read from the socket, split anywhere (one byte at a time
/// works), and it reports what happened through a callback: complete messages,
/// pings to answer, pongs, the peer's close, or a protocol failure with the close
/// code to send. It never touches a socket and never allocates per frame: a
/// fragmented or masked message is assembled in one reusable buffer, control
/// payloads in fixed inline storage.
///
/// After `.peerClosed` or `.fail` the machine is finished (`isFinished`) and
/// ignores further bytes.
///
/// With an `inflater` (permessage-deflate negotiated), RSV1 on the first frame of a data
/// message marks it compressed: the frames are joined as they are and the whole message is
/// inflated at its last frame, within `maxMessageSize`.
public struct WebSocketProtocolMachine {
    /// Limits and policy.
    public struct Configuration: Sendable {
        /// The largest message (all fragments together) in bytes; more gives `.fail(1009)`.
        public var maxMessageSize: Int
        /// When false, a binary message fails at its first frame header with 1003.
        public var acceptsBinary: Bool
        /// Servers require masked frames (true); a client reading a server sets false.
        public var requiresMasking: Bool

        /// The default of `maxMessageSize`, and so of the server's (`--max-message-size`).
        public static let defaultMaxMessageSize = 64 * 1024

        public init(maxMessageSize: Int = defaultMaxMessageSize, acceptsBinary: Bool = true, requiresMasking: Bool = true) {
            self.maxMessageSize = max(0, maxMessageSize)
            self.acceptsBinary = acceptsBinary
            self.requiresMasking = requiresMasking
        }
    }

    /// What the bytes fed so far mean. Buffers are valid only during the callback.
    public enum Event {
        /// A complete text message; its bytes are valid UTF-8.
        case text(UnsafeRawBufferPointer)
        /// A complete binary message.
        case binary(UnsafeRawBufferPointer)
        /// A ping arrived: answer with a pong carrying exactly this payload.
        case sendPong(payload: UnsafeRawBufferPointer)
        /// A pong arrived (solicited or not): the peer is alive.
        case pongReceived(payload: UnsafeRawBufferPointer)
        /// The peer sent a valid close frame. `code` is nil when the frame had no
        /// payload (report 1005 locally; echo a close without a code or with 1000).
        /// `reason` is valid UTF-8, at most 123 bytes. Answer with a close frame,
        /// then close TCP.
        case peerClosed(code: WebSocketCloseCode?, reason: UnsafeRawBufferPointer)
        /// The peer broke the protocol: send a close frame with this code and
        /// close TCP (1002, 1003, 1007 or 1009; 1007 too for compressed data that does not inflate).
        case fail(WebSocketCloseCode)
    }

    private enum Phase {
        case header          // collecting header bytes
        case payload         // `remaining` payload bytes of the current frame to go
        case finished        // after a close frame or a failure
    }

    /// The frame whose payload is being read.
    private struct Frame {
        var length: UInt64 = 0
        var offset: UInt64 = 0   // payload bytes of this frame read so far
        var key: WebSocketMaskingKey?
        var opcode: WebSocketOpcode = .continuation
        var fin = false
    }

    // Declared small fields first, so they fill the configuration's tail: every connection
    // holds a machine, and this keeps it at 80 bytes (`WebSocketLayoutTests`).
    public let configuration: Configuration
    private var phase: Phase = .header
    /// The data message being assembled (text or binary), nil between messages.
    private var messageOpcode: WebSocketOpcode?
    /// Whether the message being assembled had RSV1 set (it is compressed).
    private var messageCompressed = false
    private var utf8 = UTF8Validator()
    /// Header bytes collected, and needed, for the frame being read (at most 14).
    private var headerCount: UInt8 = 0
    private var headerNeeded: UInt8 = 2
    /// Set when permessage-deflate was negotiated: compressed messages are inflated with it.
    /// Shared with other connections of the loop; it keeps nothing between messages.
    public var inflater: PerMessageInflater?
    private var headerStorage: (UInt64, UInt64) = (0, 0)   // up to 14 header bytes
    private var frame = Frame()
    private var message: [UInt8] = []
    /// The payload of the control frame being read (at most 125 bytes), allocated for it and
    /// released after it: control frames are rare, and an idle connection keeps no room.
    private var controlStorage: [UInt8] = []

    /// Within one read, a message buffer up to this size is kept for the next message.
    private static let retainedMessageCapacity = 4096
    /// A message of one frame up to this size that arrives whole in one read is unmasked on
    /// the stack (`withUnsafeTemporaryAllocation` stays on the stack at this size).
    private static let wholeFrameLimit: UInt64 = 1024

    /// A machine; pass the loop's `inflater` when permessage-deflate was negotiated.
    public init(configuration: Configuration = Configuration(), inflater: PerMessageInflater? = nil) {
        self.configuration = configuration
        self.inflater = inflater
    }

    /// Shorthand for a server machine with the given message limit.
    public init(maxMessageSize: Int) {
        self.init(configuration: Configuration(maxMessageSize: maxMessageSize))
    }

    /// True after a close frame or a failure: no more events will come.
    public var isFinished: Bool { phase == .finished }

    /// True while a fragmented data message is partly received.
    public var isInsideMessage: Bool { messageOpcode != nil }

    /// Feeds bytes read from the peer. `onEvent` runs synchronously for each
    /// event, in order; the buffers it receives are valid only during the call.
    public mutating func receive(_ bytes: UnsafeRawBufferPointer, _ onEvent: (Event) -> Void) {
        guard let base = bytes.baseAddress else { return }
        // The common read, whole small frames only, takes this short loop; anything else goes
        // on in `receiveFrames`, whose larger frame the common read does not pay for.
        var index = 0
        let count = bytes.count
        while index < count && phase == .header && headerCount == 0 {
            let consumed = receiveSmallFrame(base + index, count - index, onEvent)
            if consumed == 0 { break }
            index += consumed
        }
        if index < count {
            receiveFrames(base, from: index, to: count, onEvent)
        } else if messageOpcode == nil && message.capacity > 0 {
            message = []
        }
    }

    /// `receive` of the bytes from `first` to `count`: every kind of frame, split anywhere.
    @inline(never)
    private mutating func receiveFrames(_ base: UnsafeRawPointer, from first: Int, to count: Int,
                                        _ onEvent: (Event) -> Void) {
        var index = first
        while index < count {
            if phase == .header && headerCount == 0 {
                let consumed = receiveSmallFrame(base + index, count - index, onEvent)
                if consumed > 0 {
                    index += consumed
                    continue
                }
            }
            switch phase {
            case .finished:
                return
            case .header:
                let take = min(Int(headerNeeded - headerCount), count - index)
                let start = Int(headerCount)
                withUnsafeMutableBytes(of: &headerStorage) { storage in
                    storage.baseAddress!.advanced(by: start).copyMemory(from: base + index, byteCount: take)
                }
                headerCount += UInt8(take)
                index += take
                if headerCount == 2 && headerNeeded == 2 {
                    if let failure = checkFirstTwoBytes() {
                        finish(onEvent, .fail(failure))
                        return
                    }
                    let secondByte = withUnsafeBytes(of: &headerStorage) { $0[1] }
                    headerNeeded = UInt8(WebSocketFrameHeader.size(secondByte: secondByte))
                }
                if headerCount == headerNeeded {
                    beginPayload(onEvent)
                }
            case .payload:
                let available = UInt64(count - index)
                if frame.offset == 0, frame.fin, frame.length <= available, frame.length <= Self.wholeFrameLimit,
                   frame.opcode == .text || frame.opcode == .binary, let opcode = messageOpcode {
                    // A whole small message in this read: unmasked on the stack and handed
                    // over from there, with no message buffer to allocate.
                    let chunk = UnsafeRawBufferPointer(start: base + index, count: Int(frame.length))
                    index += chunk.count
                    phase = .header
                    if let failure = deliverWhole(opcode, chunk, onEvent) {
                        finish(onEvent, .fail(failure))
                        return
                    }
                    messageOpcode = nil
                    messageCompressed = false
                    continue
                }
                let take = Int(min(frame.length - frame.offset, available))
                let chunk = UnsafeRawBufferPointer(start: base + index, count: take)
                index += take
                if frame.opcode.isControl {
                    storeControlPayload(chunk)
                } else if !appendMessagePayload(chunk) {
                    finish(onEvent, .fail(.invalidPayload))
                    return
                }
                if frame.offset == frame.length {
                    endFrame(onEvent)
                }
            }
        }
        // Between messages an idle connection keeps no buffer; within one read the buffer
        // serves every message the read brought.
        if messageOpcode == nil && message.capacity > 0 {
            message = []
        }
    }

    /// The common case in one pass: a whole masked text or binary frame with FIN, no reserved
    /// bits and a 7-bit or 16-bit length up to `wholeFrameLimit`, at `start` while no message
    /// is in progress. It is unmasked
    /// into a stack buffer eight bytes at a time while its ASCII-ness is gathered, so only a
    /// text payload with a byte of 0x80 or more goes through the full UTF-8 validator.
    /// Returns the bytes consumed, or 0 for any other frame (the general path takes it; it
    /// makes the same checks, so the two agree on every input).
    private mutating func receiveSmallFrame(_ start: UnsafeRawPointer, _ available: Int,
                                            _ onEvent: (Event) -> Void) -> Int {
        guard available >= 6, messageOpcode == nil else { return 0 }
        let first = start.load(as: UInt8.self)
        let second = start.load(fromByteOffset: 1, as: UInt8.self)
        // 0x81 text, 0x82 binary: FIN set, RSV clear; and MASK set.
        guard first == 0x81 || (first == 0x82 && configuration.acceptsBinary), second & 0x80 != 0 else { return 0 }
        var length = Int(second & 0x7F)
        var headerSize = 6
        if length == 126 {
            guard available >= 8 else { return 0 }
            length = Int(UInt16(bigEndian: start.loadUnaligned(fromByteOffset: 2, as: UInt16.self)))
            guard length <= Int(Self.wholeFrameLimit) else { return 0 }
            headerSize = 8
        } else if length == 127 {
            return 0
        }
        guard available >= headerSize + length, length <= configuration.maxMessageSize - message.count else { return 0 }
        let key = UInt64(UInt32(littleEndian: start.loadUnaligned(fromByteOffset: headerSize - 4, as: UInt32.self)))
        let payload = start + headerSize
        let isText = first == 0x81
        let valid = withUnsafeTemporaryAllocation(byteCount: length, alignment: 8) { buffer -> Bool in
            guard let target = buffer.baseAddress else {
                onEvent(isText ? .text(UnsafeRawBufferPointer(buffer)) : .binary(UnsafeRawBufferPointer(buffer)))
                return true
            }
            // The key repeats every four bytes, so it lines up again after each 8 and 4 done.
            let word = key | key << 32
            var seen: UInt64 = 0   // every unmasked byte ORed in: bit 7 of a lane is set by any non-ASCII byte
            var index = 0
            while index + 8 <= length {
                let plain = payload.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ word
                target.storeBytes(of: plain, toByteOffset: index, as: UInt64.self)
                seen |= plain
                index += 8
            }
            if index + 4 <= length {
                let plain = payload.loadUnaligned(fromByteOffset: index, as: UInt32.self) ^ UInt32(truncatingIfNeeded: key)
                target.storeBytes(of: plain, toByteOffset: index, as: UInt32.self)
                seen |= UInt64(plain)
                index += 4
            }
            var keyByte = key
            while index < length {
                let plain = payload.load(fromByteOffset: index, as: UInt8.self) ^ UInt8(truncatingIfNeeded: keyByte)
                target.storeBytes(of: plain, toByteOffset: index, as: UInt8.self)
                seen |= UInt64(plain)
                keyByte >>= 8
                index += 1
            }
            let bytes = UnsafeRawBufferPointer(buffer)
            guard isText else {
                onEvent(.binary(bytes))
                return true
            }
            guard seen & 0x8080_8080_8080_8080 == 0 || UTF8Validator.isValid(bytes) else { return false }
            onEvent(.text(bytes))
            return true
        }
        if !valid { finish(onEvent, .fail(.invalidPayload)) }
        return headerSize + length
    }

    /// The rules that two header bytes already decide. Returns the close code on violation.
    private func checkFirstTwoBytes() -> WebSocketCloseCode? {
        let (first, second) = withUnsafeBytes(of: headerStorage) { ($0[0], $0[1]) }
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

    /// The header is complete: validate its length and start reading the payload.
    private mutating func beginPayload(_ onEvent: (Event) -> Void) {
        let parsed = withUnsafeBytes(of: &headerStorage) { storage in
            WebSocketFrameHeader.parse(UnsafeRawBufferPointer(rebasing: storage[0 ..< Int(headerCount)]))
        }
        headerCount = 0
        headerNeeded = 2
        guard case .header(let header, _) = parsed, let opcode = header.opcode else {
            finish(onEvent, .fail(.protocolError))   // a 64-bit length with its top bit set
            return
        }
        frame = Frame(length: header.payloadLength, offset: 0, key: header.maskingKey, opcode: opcode, fin: header.fin)
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
        phase = .payload
        if header.payloadLength == 0 {
            endFrame(onEvent)
        }
    }

    private mutating func storeControlPayload(_ chunk: UnsafeRawBufferPointer) {
        let start = Int(frame.offset)
        let key = frame.key
        let offset = frame.offset
        if controlStorage.isEmpty { controlStorage = [UInt8](repeating: 0, count: 125) }
        controlStorage.withUnsafeMutableBytes { storage in
            let target = UnsafeMutableRawBufferPointer(rebasing: storage[start ..< start + chunk.count])
            target.copyMemory(from: chunk)
            key?.apply(to: target, frameOffset: offset)
        }
        frame.offset += UInt64(chunk.count)
    }

    /// Appends unmasked data; returns false when a text message stops being valid UTF-8.
    private mutating func appendMessagePayload(_ chunk: UnsafeRawBufferPointer) -> Bool {
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
        frame.offset += UInt64(chunk.count)
        return message.withUnsafeMutableBytes { all in
            let fresh = UnsafeMutableRawBufferPointer(rebasing: all[start...])
            key?.apply(to: fresh, frameOffset: offset)
            return !isText || utf8.validate(UnsafeRawBufferPointer(fresh))
        }
    }

    private mutating func endFrame(_ onEvent: (Event) -> Void) {
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

    /// Reports a message that came whole in one frame of one read, unmasked into a stack
    /// buffer; returns the close code instead when it is not valid. The closure takes what
    /// it needs as locals: capturing `self` would copy the whole machine.
    private func deliverWhole(_ opcode: WebSocketOpcode, _ masked: UnsafeRawBufferPointer,
                              _ onEvent: (Event) -> Void) -> WebSocketCloseCode? {
        let key = frame.key
        let inflater = messageCompressed ? self.inflater : nil
        let compressed = messageCompressed
        let limit = configuration.maxMessageSize
        return withUnsafeTemporaryAllocation(byteCount: masked.count, alignment: 1) { buffer in
            buffer.copyMemory(from: masked)
            key?.apply(to: buffer, frameOffset: 0)
            let bytes = UnsafeRawBufferPointer(buffer)
            if compressed { return Self.deliverCompressed(opcode, bytes, inflater: inflater, limit: limit, onEvent) }
            if opcode == .text && !UTF8Validator.isValid(bytes) { return .invalidPayload }
            onEvent(opcode == .text ? .text(bytes) : .binary(bytes))
            return nil
        }
    }

    /// Inflates the joined payload of a compressed message and reports it; returns the
    /// close code instead when it is too big or not valid (DEFLATE data, or UTF-8 for text).
    private func deliverCompressed(_ opcode: WebSocketOpcode, _ onEvent: (Event) -> Void) -> WebSocketCloseCode? {
        message.withUnsafeBytes {
            Self.deliverCompressed(opcode, $0, inflater: inflater, limit: configuration.maxMessageSize, onEvent)
        }
    }

    private static func deliverCompressed(_ opcode: WebSocketOpcode, _ compressed: UnsafeRawBufferPointer,
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

    private mutating func endCloseFrame(_ onEvent: (Event) -> Void) {
        let length = Int(frame.length)
        var failure: WebSocketCloseCode?
        var code: WebSocketCloseCode?
        controlStorage.withUnsafeBytes { storage in
            if length == 1 {
                failure = .protocolError
            } else if length >= 2 {
                let candidate = WebSocketCloseCode(rawValue: UInt16(storage[0]) << 8 | UInt16(storage[1]))
                if !candidate.isValidOnWire {
                    failure = .protocolError
                } else if !UTF8Validator.isValid(UnsafeRawBufferPointer(rebasing: storage[2 ..< length])) {
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
        controlStorage.withUnsafeBytes { storage in
            let reason = length >= 2 ? UnsafeRawBufferPointer(rebasing: storage[2 ..< length])
                                     : UnsafeRawBufferPointer(rebasing: storage[0 ..< 0])
            onEvent(.peerClosed(code: code, reason: reason))
        }
        controlStorage = []
        releaseMessage()
    }

    private mutating func withControlPayload(_ body: (UnsafeRawBufferPointer) -> Void) {
        let length = Int(frame.length)
        controlStorage.withUnsafeBytes { storage in
            body(UnsafeRawBufferPointer(rebasing: storage[0 ..< length]))
        }
        controlStorage = []
    }

    private mutating func finish(_ onEvent: (Event) -> Void, _ event: Event) {
        phase = .finished
        releaseMessage()
        onEvent(event)
    }

    private mutating func releaseMessage() {
        messageOpcode = nil
        messageCompressed = false
        message = []
    }
}
