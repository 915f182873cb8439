import WebSocket

/// Checks an upgrade request against RFC 6455 §4.2.1 and the Origin policy. Each field is
/// found in the head's index, made as the parser read the names (no scan of the fields).
enum WebSocketUpgrade {
    /// Either the key to answer with 101, or the error response to send instead.
    enum Verdict {
        case accept(key: String)
        case refuse(HTTPResponse)
    }

    static func evaluate(_ request: HTTPRequestHead, hostPolicy: HostPolicy) -> Verdict {
        guard request.method == "GET" else { return .refuse(.error(405, headers: [("Allow", "GET")])) }
        // The usual values first, compared whole: the parser hands them out as these very
        // literals, so the comparison is of two words.
        guard request.containsField(.upgrade, where: { $0 == "websocket" || WebSocketHandshake.headerValue($0, containsToken: "websocket") }) else {
            return .refuse(.error(426, headers: [("Upgrade", "websocket"), ("Sec-WebSocket-Version", "13")]))
        }
        guard request.version.minor >= 1, request.body == .none else { return .refuse(.error(400)) }
        guard request.containsField(.connection, where: { $0 == "Upgrade" || WebSocketHandshake.headerValue($0, containsToken: "upgrade") }) else {
            return .refuse(.error(400))
        }
        let versions = request.field(.secWebSocketVersion)
        guard versions.count == 1, let version = versions.first else {
            return .refuse(.error(400, headers: [("Sec-WebSocket-Version", "13")]))
        }
        guard version == "13" || WebSocketHandshake.isSupportedVersion(version) else {
            return .refuse(.error(426, headers: [("Sec-WebSocket-Version", "13")]))
        }
        let keys = request.field(.secWebSocketKey)
        guard keys.count == 1, let key = keys.first, WebSocketHandshake.isValidKey(key) else { return .refuse(.error(400)) }
        guard isOriginAllowed(request, hostPolicy: hostPolicy) else { return .refuse(.error(403)) }
        return .accept(key: key)
    }

    /// No Origin (non-browser clients) passes; otherwise it must be the page's own origin
    /// (the server's scheme with the request's Host, which routing already checked) or listed.
    static func isOriginAllowed(_ request: HTTPRequestHead, hostPolicy: HostPolicy) -> Bool {
        let origins = request.field(.origin)
        guard let origin = origins.first else { return true }
        guard origins.count == 1 else { return false }
        return hostPolicy.allows(origin: origin, host: request.host ?? "")
    }

    /// The permessage-deflate settings for the request's `Sec-WebSocket-Extensions` offers:
    /// the first offer this server can accept, nil when there is none or `enabled` is false.
    static func perMessageDeflate(_ request: HTTPRequestHead, enabled: Bool) -> PerMessageDeflateParameters? {
        guard enabled else { return nil }
        return PerMessageDeflateOffer.negotiate(request.values(of: .secWebSocketExtensions))
    }
}
