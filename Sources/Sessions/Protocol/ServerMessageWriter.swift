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
        var json = "{\"ready\":{\"viewModel\":"
        json.appendJSONString(viewModel)
        json.append(",\"session\":")
        json.appendJSONString(session)
        json.append(",\"inputs\":{")
        for (position, input) in inputs.enumerated() {
            if position > 0 { json.append(",") }
            json.appendJSONString(input.name)
            json.append(":")
            json.appendJSONString(input.kind.rawValue)
        }
        json.append("},\"outputs\":[")
        for (position, output) in outputs.enumerated() {
            if position > 0 { json.append(",") }
            json.appendJSONString(output)
        }
        json.append("]}}")
        return json
    }

    /// `{"output":"<name>","value":<value>}`.
    public static func output(_ name: String, value: some JSONValueEncodable) -> String {
        OutputMessageTemplate(output: name).message(value)
    }

    /// `{"error":{"code":"<code>","message":"<message>"}}`.
    public static func error(_ error: ProtocolError) -> String {
        var json = "{\"error\":{\"code\":\""
        json.append(error.code.rawValue)
        json.append("\",\"message\":")
        json.appendJSONString(error.message)
        json.append("}}")
        return json
    }
}

/// The output message of one output, with its constant head built once, so each
/// element costs one small append.
public struct OutputMessageTemplate: Sendable {
    private let head: String

    /// A template for the output named `output`.
    public init(output: String) {
        var head = "{\"output\":"
        head.appendJSONString(output)
        head.append(",\"value\":")
        self.head = head
    }

    /// The message carrying `value`.
    public func message(_ value: some JSONValueEncodable) -> String {
        var json = head
        value.appendJSON(to: &json)
        json.append("}")
        return json
    }
}
