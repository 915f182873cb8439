/// The receiving side of an RFC 6455 connection as an explicit state machine.
///
/// Feed it the raw bytes read from the socket, split anywhere (one byte at a time
/// works), and it reports what happened through a callback: complete messages,
/// pings to answer, pongs, the peer's close, or a protocol failure with the close
/// code to send. It never touches a socket, and a whole small data frame costs no
/// allocation: a fragmented or masked message is assembled in one reusable buffer,
/// a control frame's payload after it.
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
        /// Kept to 0 ... `UInt32.max`, so that a frame's length and offset are 32 bits.
        public var maxMessageSize: Int {
            get { Int(maxMessageBytes) }
            set { maxMessageBytes = UInt32(clamping: newValue) }
        }
        /// `maxMessageSize` in 32 bits: with the two flags, 6 bytes (`WebSocketLayoutTests`).
        private var maxMessageBytes: UInt32
        /// When false, a binary message fails at its first frame header with 1003.
        public var acceptsBinary: Bool
        /// Servers require masked frames (true); a client reading a server sets false.
        public var requiresMasking: Bool

        /// The default of `maxMessageSize`, and so of the server's (`--max-message-size`).
        public static let defaultMaxMessageSize = 64 * 1024

        public init(maxMessageSize: Int = defaultMaxMessageSize, acceptsBinary: Bool = true, requiresMasking: Bool = true) {
            maxMessageBytes = UInt32(clamping: maxMessageSize)
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

    enum Phase {
        case header          // collecting header bytes
        case payload         // `remaining` payload bytes of the current frame to go
        case finished        // after a close frame or a failure
    }

    /// The frame whose payload is being read. While a header arrives split over reads, its
    /// bytes (at most 14) are collected in the first four fields (`headerBytes`), which the
    /// frame before no longer needs and the complete header then sets: integers all, so any
    /// byte there is a value. A frame's length fits 32 bits: more than `maxMessageSize` fails.
    struct Frame {
        var length: UInt32 = 0
        var offset: UInt32 = 0   // payload bytes of this frame read so far
        /// The masking key's `packed` bits, when `isMasked`.
        var keyBits: UInt32 = 0
        /// Only the split header's last two bytes.
        var headerTail: UInt16 = 0
        var opcode: WebSocketOpcode = .continuation
        var fin = false
        var isMasked = false

        init() {}

        init(length: UInt32, key: WebSocketMaskingKey?, opcode: WebSocketOpcode, fin: Bool) {
            self.length = length
            keyBits = key?.packed ?? 0
            isMasked = key != nil
            self.opcode = opcode
            self.fin = fin
        }

        var key: WebSocketMaskingKey? { isMasked ? WebSocketMaskingKey(packed: keyBits) : nil }
    }

    // Declared small fields first, so they fill the configuration's tail, and the frame after
    // them: every connection holds a machine, and this keeps it at 48 bytes
    // (`WebSocketLayoutTests`).
    public let configuration: Configuration
    var phase: Phase = .header
    /// The data message being assembled (text or binary), nil between messages.
    var messageOpcode: WebSocketOpcode?
    /// Whether the message being assembled had RSV1 set (it is compressed).
    var messageCompressed = false
    var utf8 = UTF8Validator()
    /// Header bytes collected, and needed, for the frame being read (at most 14).
    var headerCount: UInt8 = 0
    var headerNeeded: UInt8 = 2
    var frame = Frame()
    // `Optional<…>`, not `…?`: a `var x: T?` starts as nil before `init` sets it, and that
    // second store made the optimiser build each machine in a temporary and copy it out.
    /// Set when permessage-deflate was negotiated: compressed messages are inflated with it.
    /// Shared with other connections of the loop; it keeps nothing between messages.
    public var inflater: Optional<PerMessageInflater>
    /// The data message being assembled; while a control frame's payload arrives (at most 125
    /// bytes), that payload after it (its last `frame.offset` bytes), taken off when the frame
    /// ends. Control frames are rare, and an idle connection keeps no room.
    var message: [UInt8] = []

    /// Within one read, a message buffer up to this size is kept for the next message.
    static let retainedMessageCapacity = 4096
    /// A message of one frame up to this size that arrives whole in one read is unmasked on
    /// the stack (`withUnsafeTemporaryAllocation` stays on the stack at this size).
    static let wholeFrameLimit: UInt32 = 1024

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
        } else {
            releaseIdleMessageBuffer()
        }
    }

    /// Between messages an idle connection keeps no buffer (but for a control frame's payload
    /// still arriving); within one read the buffer serves every message the read brought.
    @inline(__always)
    mutating func releaseIdleMessageBuffer() {
        if messageOpcode == nil && message.capacity > 0 && !(phase == .payload && frame.opcode.isControl) {
            message = []
        }
    }

    /// `receive` of the bytes from `first` to `count`: every kind of frame, split anywhere.
    @inline(never)
    mutating func receiveFrames(_ base: UnsafeRawPointer, from first: Int, to count: Int,
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
                withHeaderBytes { storage in
                    storage.baseAddress!.advanced(by: start).copyMemory(from: base + index, byteCount: take)
                }
                headerCount += UInt8(take)
                index += take
                if headerCount == 2 && headerNeeded == 2 {
                    if let failure = checkFirstTwoBytes() {
                        finish(onEvent, .fail(failure))
                        return
                    }
                    let secondByte = withHeaderBytes { $0[1] }
                    headerNeeded = UInt8(WebSocketFrameHeader.size(secondByte: secondByte))
                }
                if headerCount == headerNeeded {
                    beginPayload(onEvent)
                }
            case .payload:
                let available = count - index
                if frame.offset == 0, frame.fin, Int(frame.length) <= available, frame.length <= Self.wholeFrameLimit,
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
                let take = min(Int(frame.length - frame.offset), available)
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
        releaseIdleMessageBuffer()
    }

    mutating func finish(_ onEvent: (Event) -> Void, _ event: Event) {
        phase = .finished
        releaseMessage()
        onEvent(event)
    }

    mutating func releaseMessage() {
        messageOpcode = nil
        messageCompressed = false
        message = []
    }
}
