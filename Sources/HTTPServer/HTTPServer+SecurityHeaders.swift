import EventLoop

extension HTTPServer {
    /// The security headers `response` gets (`SecurityHeaders.fields`): the page's when it is
    /// HTML, HSTS when it goes out over TLS or a trusted proxy says the client used HTTPS.
    func securityFields(for response: HTTPResponse, request: HTTPRequestHead,
                        peer: TCPConnection) -> [(name: String, value: String)] {
        let headers = configuration.securityHeaders
        let html = response.headers.contains { name, value in
            name.lowercased() == "content-type" && value.lowercased().hasPrefix("text/html")
        }
        guard html || headers.strictTransportSecurityMaxAge != nil else { return [] }
        let secure = configuration.tls != nil || forwardedOverHTTPS(request, peer: peer)
        return headers.fields(html: html, secure: secure, host: request.host)
    }

    /// True when the peer is a trusted proxy whose own entry in `X-Forwarded-Proto` (the
    /// last one: earlier ones came from the client or proxies before it) is `https`.
    private func forwardedOverHTTPS(_ request: HTTPRequestHead, peer: TCPConnection) -> Bool {
        guard !configuration.trustedProxies.isEmpty, let address = peer.peerAddress,
              configuration.trustedProxies.contains(address),
              let last = request.headers(named: "x-forwarded-proto").last?.split(separator: ",").last else { return false }
        return last.trimmingWhitespace().lowercased() == "https"
    }
}
