/// How a view-model input is fed over the wire.
public enum InputKind: String, Sendable, Equatable {
    /// A text field: every message carries the field's whole new value as a string
    /// (like `rx.text.orEmpty`).
    case text
    /// A button: a message without a value is one tap (like `rx.tap`).
    case tap
    /// Any JSON value, decoded into the input's `Decodable` type (a number, a choice, a
    /// struct, a list): `bad_value` when it does not decode.
    case value
}
