/// One client message after strict JSON parsing, before it is checked against the
/// inputs of a view model (`InputTable` does that step).
@_spi(Protocol) public struct ClientMessage: Sendable, Equatable {
    /// What the message carried under `"value"`.
    public enum Value: Sendable, Equatable {
        /// No `"value"` key: the shape of a tap.
        case absent
        /// A JSON string: the shape of a text input's new value.
        case string(String)
        /// A well-formed JSON value that is not a string (number, boolean, null, array,
        /// object), as its JSON text: a value input decodes it into its `Decodable` type.
        case json(String)
    }

    /// The input's name, the `"input"` string.
    public var input: String
    /// The `"value"` member.
    public var value: Value

    /// Creates a message.
    public init(input: String, value: Value) {
        self.input = input
        self.value = value
    }
}
