/// JSON text of the server's messages, exactly in the shapes of `PROTOCOL.md`.
///
/// Key order and spacing are fixed (no spaces), so a scripted client can compare lines.
package enum ServerMessageWriter {
    /// `{"ready":{"viewModel":…,"session":…,"inputs":{…},"outputs":[…]}}`, inputs and
    /// outputs in declaration order.
    package static func ready(
        viewModel: String, session: String,
        inputs: [(name: String, kind: InputKind)], outputs: [String]
    ) -> String {
        ReadyMessageTemplate(viewModel: viewModel, inputs: inputs, outputs: outputs).message(session: session)
    }

    /// `{"signIn":{"user":"<name>","code":"<code>"}}`: a right login's hand-over code, which
    /// the page redeems for its session cookie (PROTOCOL.md, "Signing in").
    package static func signIn(user: String, code: String) -> String {
        var json = "{\"signIn\":{\"user\":"
        json.appendJSONString(user)
        json.append(",\"code\":")
        json.appendJSONString(code)
        json.append("}}")
        return json
    }

    /// `{"signedOut":{"reason":"<reason>"}}`: the sign-in of this session ended; the server
    /// closes the session next with code 4001.
    package static func signedOut(reason: String) -> String {
        var json = "{\"signedOut\":{\"reason\":"
        json.appendJSONString(reason)
        json.append("}}")
        return json
    }

    /// `{"output":"<name>","value":<value>}`.
    package static func output(_ name: String, value: some JSONValueEncodable) -> String {
        OutputMessageTemplate(output: name).message(value)
    }

    /// `{"error":{"code":"<code>","message":"<message>"}}`, with `,"retryAfter":<seconds>`
    /// after the message when the error has a wait.
    package static func error(_ error: ProtocolError) -> String {
        var json = "{\"error\":{\"code\":\""
        json.append(error.code.rawValue)
        json.append("\",\"message\":")
        json.appendJSONString(error.message)
        if let retryAfter = error.retryAfter {
            json.append(",\"retryAfter\":")
            json.append(String(retryAfter))
        }
        json.append("}}")
        return json
    }
}

/// The output message of one output, with its constant head built once, so each
/// element costs one small append. Usable from inline: the app's module specializes an
/// output's observer (`WireOutput`), which writes through it.
@usableFromInline
struct OutputMessageTemplate: Sendable {
    @usableFromInline
    let head: String
    /// `head` as UTF-8, for messages written into the stack: in memory of its own rather
    /// than an array, which each message retained and released through its closures.
    @usableFromInline
    let headBytes: FixedBytes

    /// A template for the output named `output`.
    @usableFromInline
    init(output: String) {
        var head = "{\"output\":"
        head.appendJSONString(output)
        head.append(",\"value\":")
        self.head = head
        headBytes = FixedBytes(head.utf8)
    }

    /// Calls `body` with the message carrying `value` as UTF-8, written into the stack
    /// (valid during the call): no `String` is made for it.
    @inlinable @inline(__always)
    func withMessage<Result>(_ value: some JSONValueEncodable, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        value.withJSONMessage(head: headBytes.bytes, body)
    }

    /// The value's JSON in a message `withMessage` wrote: what follows the head, but the last `}`.
    func value(in message: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: message[headBytes.bytes.count..<(message.count - 1)])
    }

    /// The message carrying `value`.
    @inlinable
    func message(_ value: some JSONValueEncodable) -> String {
        var json = head
        value.appendJSON(to: &json)
        json.append("}")
        return json
    }
}

/// Bytes written once and read in place until the object goes (a template's constant part).
@usableFromInline
final class FixedBytes: @unchecked Sendable {  // the bytes are written in init only and never after: read-only memory
    /// Valid while this object lives.
    @usableFromInline
    let bytes: UnsafeRawBufferPointer

    init(_ contents: some Collection<UInt8>) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: contents.count, alignment: 1)
        buffer.copyBytes(from: contents)
        bytes = UnsafeRawBufferPointer(buffer)
    }

    deinit { bytes.deallocate() }
}

/// The `ready` message of one view model, built once but for the session id. A class: a
/// session's open reads it through one reference, where copying four strings and arrays out
/// of its endpoint cost about 400 instructions.
final class ReadyMessageTemplate: Sendable {
    private let head: String
    private let tail: String
    /// `head` and `tail` as bytes, for `withMessage`.
    private let headBytes: [UInt8]
    private let tailBytes: [UInt8]

    /// A template for sessions of `viewModel` with these inputs and outputs (in order).
    init(viewModel: String, inputs: [(name: String, kind: InputKind)], outputs: [String]) {
        var head = "{\"ready\":{\"viewModel\":"
        head.appendJSONString(viewModel)
        head.append(",\"session\":")
        var tail = ",\"inputs\":{"
        for (position, input) in inputs.enumerated() {
            if position > 0 { tail.append(",") }
            tail.appendJSONString(input.name)
            tail.append(":")
            tail.appendJSONString(input.kind.rawValue)
        }
        tail.append("},\"outputs\":[")
        for (position, output) in outputs.enumerated() {
            if position > 0 { tail.append(",") }
            tail.appendJSONString(output)
        }
        tail.append("]}}")
        self.head = head
        self.tail = tail
        headBytes = Array(head.utf8)
        tailBytes = Array(tail.utf8)
    }

    /// The message for the session `session`, with `"user"` after it when one is signed in.
    func message(session: String, user: String? = nil) -> String {
        var json = head
        json.appendJSONString(session)
        if let user {
            json.append(",\"user\":")
            json.appendJSONString(user)
        }
        json.append(tail)
        return json
    }

    /// Calls `body` with the message for the session whose id is `sessionBits` in lowercase
    /// hex (as `String(sessionBits, radix: 16)` writes it), with `"user"` after it for a
    /// signed-in session, written into the stack: an open makes no `String` for its `ready`.
    func withMessage<Result>(sessionBits: UInt64, user signedIn: SignedInUser? = nil,
                             _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withExtendedLifetime(signedIn) { writeMessage(sessionBits: sessionBits, user: signedIn?.nameJSON.bytes, body) }
    }

    /// `withMessage` with the user's JSON bytes, which must outlive the call. Written with
    /// raw pointers from the template's bytes: copying its strings' UTF-8 through buffer
    /// slices cost about 600 instructions a session.
    private func writeMessage<Result>(sessionBits: UInt64, user: UnsafeRawBufferPointer?,
                                      _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let userKey: StaticString = ",\"user\":"
        let userCount = user.map { userKey.utf8CodeUnitCount + $0.count } ?? 0
        return headBytes.withUnsafeBytes { head in
            tailBytes.withUnsafeBytes { tail in
                // 16 hex digits at most, between two quotes.
                let capacity = head.count + 18 + userCount + tail.count
                return withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 1) { buffer in
                    let start = buffer.baseAddress!
                    var cursor = start
                    func append(_ bytes: UnsafeRawBufferPointer) {
                        if let base = bytes.baseAddress { cursor.copyMemory(from: base, byteCount: bytes.count) }
                        cursor += bytes.count
                    }
                    append(head)
                    let digits = max(1, (64 - sessionBits.leadingZeroBitCount + 3) / 4)
                    cursor.storeBytes(of: 0x22, as: UInt8.self)  // "
                    let hex = (Self.hexDigits(UInt32(truncatingIfNeeded: sessionBits >> 32)),
                               Self.hexDigits(UInt32(truncatingIfNeeded: sessionBits)))
                    withUnsafeBytes(of: hex) { cursor.advanced(by: 1).copyMemory(from: $0.baseAddress! + 16 - digits, byteCount: digits) }
                    cursor.storeBytes(of: 0x22, toByteOffset: digits + 1, as: UInt8.self)
                    cursor += digits + 2
                    if let user {
                        append(UnsafeRawBufferPointer(start: userKey.utf8Start, count: userKey.utf8CodeUnitCount))
                        append(user)
                    }
                    append(tail)
                    return body(UnsafeRawBufferPointer(start: start, count: cursor - start))
                }
            }
        }
    }

    /// `bits` as eight lowercase hex digits, most significant first in memory, written a
    /// word at a time: its nibbles spread to bytes, each moved to '0' or 'a' by adding, where
    /// a digit at a time cost a session about 150 instructions more.
    static func hexDigits(_ bits: UInt32) -> UInt64 {
        var spread = UInt64(bits)
        spread = (spread | spread << 16) & 0x0000_FFFF_0000_FFFF
        spread = (spread | spread << 8) & 0x00FF_00FF_00FF_00FF
        spread = (spread | spread << 4) & 0x0F0F_0F0F_0F0F_0F0F  // byte k holds nibble k
        // 0x10 in each byte whose nibble is 10 or more; those go past '9' to 'a' (0x27 more).
        let letters = ((spread &+ 0x0606_0606_0606_0606) & 0x1010_1010_1010_1010) >> 4
        return (spread &+ 0x3030_3030_3030_3030 &+ letters &* 0x27).bigEndian
    }
}
