/// JSON text of the server's messages, exactly in the shapes of `PROTOCOL.md`.
///
/// Key order and spacing are fixed (no spaces), so a scripted client can compare lines.
public enum ServerMessageWriter {
    /// `{"ready":{"viewModel":…,"session":…,"inputs":{…},"outputs":[…]}}`, inputs and
    /// outputs in declaration order.
    public static func ready(
        viewModel: String, session: String,
        inputs: [(name: String, kind: InputKind)], outputs: [String]
    ) -> String {
        ReadyMessageTemplate(viewModel: viewModel, inputs: inputs, outputs: outputs).message(session: session)
    }

    /// `{"output":"<name>","value":<value>}`.
    public static func output(_ name: String, value: some JSONValueEncodable) -> String {
        OutputMessageTemplate(output: name).message(value)
    }

    /// `{"error":{"code":"<code>","message":"<message>"}}`, with `,"retryAfter":<seconds>`
    /// after the message when the error has a wait.
    public static func error(_ error: ProtocolError) -> String {
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
    /// `head` as UTF-8, for messages written into the stack.
    @usableFromInline
    let headBytes: [UInt8]

    /// A template for the output named `output`.
    @usableFromInline
    init(output: String) {
        var head = "{\"output\":"
        head.appendJSONString(output)
        head.append(",\"value\":")
        self.head = head
        headBytes = Array(head.utf8)
    }

    /// Calls `body` with the message carrying `value` as UTF-8, written into the stack
    /// (valid during the call): no `String` is made for it.
    @inlinable
    func withMessage<Result>(_ value: some JSONValueEncodable, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        value.withJSONBytes { valueBytes in
            headBytes.withUnsafeBytes { head in
                withUnsafeTemporaryAllocation(byteCount: head.count + valueBytes.count + 1, alignment: 1) { buffer in
                    buffer.copyMemory(from: head)
                    UnsafeMutableRawBufferPointer(rebasing: buffer[head.count...]).copyMemory(from: valueBytes)
                    buffer[buffer.count - 1] = 0x7D  // }
                    return body(UnsafeRawBufferPointer(buffer))
                }
            }
        }
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

/// The `ready` message of one view model, built once but for the session id.
struct ReadyMessageTemplate: Sendable {
    private let head: String
    private let tail: String

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
    }

    /// The message for the session `session`.
    func message(session: String) -> String {
        var json = head
        json.appendJSONString(session)
        json.append(tail)
        return json
    }
}
