/// A close status code (RFC 6455 section 7.4), kept as its raw number so that
/// codes from the private range 4000–4999 round-trip unchanged.
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    @inlinable
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 1000: the purpose of the connection is fulfilled.
    public static let normal = WebSocketCloseCode(rawValue: 1000)
    /// 1001: the endpoint goes away (server shutdown, page left).
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// 1002: the peer broke the protocol.
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// 1003: a message of a type this endpoint does not accept (binary here).
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// 1005: reported locally when a close frame had no status code; never sent.
    public static let noStatusReceived = WebSocketCloseCode(rawValue: 1005)
    /// 1006: reported locally when TCP closed without a close frame; never sent.
    public static let abnormalClosure = WebSocketCloseCode(rawValue: 1006)
    /// 1007: a text message that is not valid UTF-8.
    public static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    /// 1008: a message that violates the endpoint's policy.
    public static let policy = WebSocketCloseCode(rawValue: 1008)
    /// 1009: a message larger than the endpoint accepts.
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// 1010: (client only) an extension the server did not negotiate.
    public static let mandatoryExtension = WebSocketCloseCode(rawValue: 1010)
    /// 1011: the server met an unexpected condition.
    public static let internalError = WebSocketCloseCode(rawValue: 1011)

    /// Whether this code may appear in a close frame on the wire.
    ///
    /// Valid: 1000–1003, 1007–1014 (the IANA-registered ones) and 3000–4999
    /// (registered and private use). Invalid: everything below 1000, the
    /// reserved 1004, the local-only 1005, 1006 and 1015, 1016–2999 and 5000+.
    @inlinable
    public var isValidOnWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: return true
        default: return false
        }
    }

    public var description: String { String(rawValue) }
}
