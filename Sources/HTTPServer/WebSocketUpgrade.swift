import WebSocket

/// Checks an upgrade request against RFC 6455 §4.2.1 and the Origin policy. Each field is
/// found in the head's index, made as the parser read the names (no scan of the fields).
enum WebSocketUpgrade {
    /// Either answer with 101 (the key is the request's one `Sec-WebSocket-Key`, valid), or
    /// the error response to send instead.
    enum Verdict {
        case accept
        case refuse(HTTPResponse)
    }

    static func evaluate(_ request: HTTPRequestHead, hostPolicy: HostPolicy) -> Verdict {
        guard request.method == "GET" else { return .refuse(.error(405, headers: [("Allow", "GET")])) }
        // The usual values first, compared whole in the head's bytes.
        guard request.containsField(.upgrade, usually: "websocket", where: { WebSocketHandshake.headerValue($0, containsToken: "websocket") }) else {
            return .refuse(.error(426, headers: [("Upgrade", "websocket"), ("Sec-WebSocket-Version", "13")]))
        }
        guard request.version.minor >= 1, request.body == .none else { return .refuse(.error(400)) }
        guard request.containsField(.connection, usually: "Upgrade", where: { WebSocketHandshake.headerValue($0, containsToken: "upgrade") }) else {
            return .refuse(.error(400))
        }
        let versionCount = request.fieldCount(.secWebSocketVersion)
        guard versionCount == 1 else { return .refuse(.error(400, headers: [("Sec-WebSocket-Version", "13")])) }
        guard request.containsField(.secWebSocketVersion, usually: "13", where: WebSocketHandshake.isSupportedVersion) else {
            return .refuse(.error(426, headers: [("Sec-WebSocket-Version", "13")]))
        }
        // Checked in place: the key is read again from the head for the accept value.
        guard request.withOnlyFieldValue(.secWebSocketKey, { $0.map(WebSocketHandshake.isValidKey(utf8:)) ?? false }) else {
            return .refuse(.error(400))
        }
        guard isOriginAllowed(request, hostPolicy: hostPolicy) else { return .refuse(.error(403)) }
        return .accept
    }

    /// No Origin (non-browser clients) passes; otherwise it must be the page's own origin
    /// (the server's scheme with the request's Host, which routing already checked) or listed.
    static func isOriginAllowed(_ request: HTTPRequestHead, hostPolicy: HostPolicy) -> Bool {
        switch request.fieldCount(.origin) {
        case 0: return true
        case 1: break
        default: return false
        }
        if request.authority == nil, request.fieldCount(.host) == 1 {
            return request.withOnlyFieldValue(.origin) { origin in
                request.withOnlyFieldValue(.host) { host in hostPolicy.allows(originBytes: origin!, hostBytes: host!) }
            }
        }
        return hostPolicy.allows(origin: request.field(.origin).first ?? "", host: request.host ?? "")
    }

    /// The permessage-deflate settings for the request's `Sec-WebSocket-Extensions` offers:
    /// the first offer this server can accept, nil when there is none or `enabled` is false.
    static func perMessageDeflate(_ request: HTTPRequestHead, enabled: Bool) -> PerMessageDeflateParameters? {
        guard enabled else { return nil }
        return PerMessageDeflateOffer.negotiate(request.values(of: .secWebSocketExtensions))
    }
}
