/// The error codes of the wire protocol (`PROTOCOL.md`, "Error codes").
public enum ProtocolErrorCode: String, Sendable, Equatable, CaseIterable {
    /// The message is not one well-formed JSON object of the protocol's shape.
    case badJSON = "bad_json"
    /// The message names an input the session's view model does not have.
    case unknownInput = "unknown_input"
    /// A text input without a string `value`, or a tap with a `value`.
    case badValue = "bad_value"
    /// Too many messages, or too many taps of a limited input, in too short a time.
    case rateLimited = "rate_limited"
    /// The login could not be checked: the accounts database cannot be reached.
    case loginUnavailable = "login_unavailable"
    /// The login could not be checked now: the server's password-hashing queue is full. No
    /// failure was counted.
    case busy = "busy"
}

/// A refused client message: the code the protocol names and a sentence for a person.
///
/// Messages never echo more than a short prefix of what the client sent.
public struct ProtocolError: Error, Sendable, Equatable {
    /// The protocol's error code.
    public var code: ProtocolErrorCode
    /// A short explanation for a person.
    public var message: String
    /// Whole seconds to wait before trying again (`retryAfter` on the wire), when known.
    public var retryAfter: Int?

    /// Creates an error with a code and a message for a person.
    public init(_ code: ProtocolErrorCode, _ message: String, retryAfter: Int? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }
}
