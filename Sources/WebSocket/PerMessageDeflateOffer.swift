/// One client offer of the permessage-deflate extension (RFC 7692 section 7.1).
public struct PerMessageDeflateOffer: Hashable, Sendable {
    /// The offer's `client_max_window_bits`: absent, present without a value, or a limit.
    public enum ClientWindowBits: Hashable, Sendable {
        /// Not in the offer.
        case absent
        /// Present without a value: the client can limit its window if told to.
        case noValue
        /// The client will use at most this window.
        case bits(Int)
    }

    /// The extension's registered name.
    public static let extensionName = "permessage-deflate"
    /// The window sizes (as powers of two) the RFC allows.
    public static let windowBitsRange = 8...15

    /// The client asks the server to reset its compression context after each message.
    public var serverNoContextTakeover = false
    /// The client says it can reset its own context after each message.
    public var clientNoContextTakeover = false
    /// The largest window the server may compress with; nil when not limited.
    public var serverMaxWindowBits: Int?
    /// What the client said about its own window.
    public var clientMaxWindowBits = ClientWindowBits.absent

    /// An offer with the given parameters (an offer with none is the plain `permessage-deflate`).
    public init(serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false,
                serverMaxWindowBits: Int? = nil, clientMaxWindowBits: ClientWindowBits = .absent) {
        self.serverNoContextTakeover = serverNoContextTakeover
        self.clientNoContextTakeover = clientNoContextTakeover
        self.serverMaxWindowBits = serverMaxWindowBits
        self.clientMaxWindowBits = clientMaxWindowBits
    }

    /// The offer an element makes, or nil when the RFC says to decline it: a parameter the
    /// offer may not carry, a parameter given twice, or a value out of range (section 7).
    public init?(_ element: WebSocketExtensionElement) {
        guard element.name == Self.extensionName else { return nil }
        var seen = Set<String>()
        for parameter in element.parameters {
            guard seen.insert(parameter.name).inserted else { return nil }
            switch parameter.name {
            case "server_no_context_takeover":
                guard parameter.value == nil else { return nil }
                serverNoContextTakeover = true
            case "client_no_context_takeover":
                guard parameter.value == nil else { return nil }
                clientNoContextTakeover = true
            case "server_max_window_bits":
                // The server's limit must come with a value.
                guard let bits = parameter.value.flatMap(Self.windowBits) else { return nil }
                serverMaxWindowBits = bits
            case "client_max_window_bits":
                if let value = parameter.value {
                    guard let bits = Self.windowBits(value) else { return nil }
                    clientMaxWindowBits = .bits(bits)
                } else {
                    clientMaxWindowBits = .noValue
                }
            default:
                return nil
            }
        }
    }

    /// Every well-formed permessage-deflate offer in `Sec-WebSocket-Extensions` values, in
    /// the client's order of preference; malformed offers and other extensions are left out.
    public static func offers(in headerValues: [String]) -> [PerMessageDeflateOffer] {
        WebSocketExtensionHeader.parse(headerValues).compactMap { $0.flatMap(PerMessageDeflateOffer.init) }
    }

    /// A window size: a decimal 8–15 without leading zeros (section 7.1.2).
    private static func windowBits(_ text: String) -> Int? {
        guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              !text.hasPrefix("0"), let bits = Int(text), windowBitsRange.contains(bits) else { return nil }
        return bits
    }

    /// This server's answer to the offer, or nil to decline it.
    ///
    /// The server never keeps a compression context between messages, and tells the client
    /// not to either (`client_no_context_takeover`, which a server may add unasked): then no
    /// zlib stream has to live with a connection while it is idle. A limit on the server's
    /// window is honoured down to 9 bits; zlib cannot compress with an 8-bit window, so an
    /// offer that demands it is declined.
    public func accept() -> PerMessageDeflateParameters? {
        if let bits = serverMaxWindowBits, bits < PerMessageDeflateParameters.smallestServerWindowBits { return nil }
        return PerMessageDeflateParameters(serverMaxWindowBits: serverMaxWindowBits,
                                           announcesServerNoContextTakeover: serverNoContextTakeover)
    }

    /// The parameters for the first offer this server can accept, or nil (no compression).
    public static func negotiate(_ headerValues: [String]) -> PerMessageDeflateParameters? {
        for offer in offers(in: headerValues) {
            if let accepted = offer.accept() { return accepted }
        }
        return nil
    }
}

/// The permessage-deflate settings agreed for one connection (server side).
public struct PerMessageDeflateParameters: Hashable, Sendable {
    /// The smallest window zlib's raw deflate supports.
    public static let smallestServerWindowBits = 9
    /// By default messages shorter than this go out uncompressed: small JSON gains nothing
    /// from compression and would only cost time.
    public static let defaultMinimumCompressedSize = 128

    /// The window the server compresses with (15 unless the client asked for less).
    public var serverWindowBits: Int
    /// Whether the response names `server_max_window_bits` (only when the client limited it).
    public var announcesServerMaxWindowBits: Bool
    /// Whether the response names `server_no_context_takeover` (only when the client asked).
    public var announcesServerNoContextTakeover: Bool

    /// The settings for an accepted offer: the client's server window limit, if any, and
    /// whether it asked for `server_no_context_takeover`.
    public init(serverMaxWindowBits: Int? = nil, announcesServerNoContextTakeover: Bool = false) {
        serverWindowBits = serverMaxWindowBits ?? 15
        announcesServerMaxWindowBits = serverMaxWindowBits != nil
        self.announcesServerNoContextTakeover = announcesServerNoContextTakeover
    }

    /// The `Sec-WebSocket-Extensions` value of the 101 response.
    public var responseHeaderValue: String {
        var value = PerMessageDeflateOffer.extensionName
        if announcesServerNoContextTakeover { value += "; server_no_context_takeover" }
        value += "; client_no_context_takeover"
        if announcesServerMaxWindowBits { value += "; server_max_window_bits=\(serverWindowBits)" }
        return value
    }
}
