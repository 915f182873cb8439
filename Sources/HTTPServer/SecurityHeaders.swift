/// The headers every HTML response carries so that a browser confines the page: what it may
/// load and connect to, who may frame it, what it leaks in `Referer`, which windows share
/// its process, and that it is reached over HTTPS only (docs/SECURITY.md says what each
/// stops). The defaults are the strict ones; nil leaves a header out.
public struct SecurityHeaders: Sendable, Equatable {
    /// `Content-Security-Policy`.
    public var contentSecurityPolicy: ContentSecurityPolicy? = .strict
    /// `Referrer-Policy`.
    public var referrerPolicy: String? = "no-referrer"
    /// `Cross-Origin-Opener-Policy`.
    public var crossOriginOpenerPolicy: String? = "same-origin"
    /// `X-Frame-Options`, for browsers that predate CSP's `frame-ancestors`.
    public var frameOptions: String? = "DENY"
    /// `Strict-Transport-Security: max-age=…` in seconds, sent on every response that went
    /// out over TLS (or through a trusted proxy that says it did), never over plain HTTP.
    public var strictTransportSecurityMaxAge: Int? = 63_072_000

    /// The strict defaults.
    public init() {}

    /// The strict defaults: what every RxLive server sends unless its app says otherwise.
    public static let strict = SecurityHeaders()

    /// No security header at all.
    public static let none: SecurityHeaders = {
        var headers = SecurityHeaders()
        headers.contentSecurityPolicy = nil
        headers.referrerPolicy = nil
        headers.crossOriginOpenerPolicy = nil
        headers.frameOptions = nil
        headers.strictTransportSecurityMaxAge = nil
        return headers
    }()

    /// The fields for one response: the page's for HTML, HSTS for anything sent over TLS.
    /// `host` is the request's (already checked against the server names), from which the
    /// page's WebSocket origin is made.
    func fields(html: Bool, secure: Bool, host: String?) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        if secure, let maxAge = strictTransportSecurityMaxAge {
            fields.append(("Strict-Transport-Security", "max-age=\(maxAge)"))
        }
        guard html else { return fields }
        if let policy = contentSecurityPolicy {
            let origin = host.flatMap { Self.isPlainHost($0) ? (secure ? "wss://" : "ws://") + $0 : nil }
            fields.append(("Content-Security-Policy", policy.headerValue(webSocketOrigin: origin)))
        }
        if let referrerPolicy { fields.append(("Referrer-Policy", referrerPolicy)) }
        if let crossOriginOpenerPolicy { fields.append(("Cross-Origin-Opener-Policy", crossOriginOpenerPolicy)) }
        if let frameOptions { fields.append(("X-Frame-Options", frameOptions)) }
        return fields
    }

    /// A host and port made of the characters a host can have, so that none can end a CSP
    /// source (`;`, `,`, a space) when the server answers any name (`*`).
    static func isPlainHost(_ host: String) -> Bool {
        !host.isEmpty && host.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"),
                 UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"):
                true
            default:
                false
            }
        }
    }
}
