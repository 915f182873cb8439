import HTTPServer
/// Who a session's client is, by IP address, for limits that count per client.
enum ClientAddress {
    /// The client's address: the TCP peer's, unless the peer is a trusted proxy, in which
    /// case `X-Forwarded-For` is read from the right (the entry the proxy itself added),
    /// past further trusted proxies, to the first address no trusted proxy vouches for.
    /// A header from an untrusted peer is ignored: anyone can write one.
    ///
    /// - Parameters:
    ///   - peer: the TCP peer's address.
    ///   - forwardedFor: every `X-Forwarded-For` header, in order (each a comma-separated list).
    ///   - trustedProxies: the addresses and ranges of the proxies in front of the server.
    static func resolve(peer: String, forwardedFor: [String], trustedProxies: TrustedProxies) -> String {
        guard trustedProxies.contains(peer) else { return peer }
        let hops = forwardedFor
            .flatMap { $0.split(separator: ",") }
            .map(trimmed)
        var client = peer
        for hop in hops.reversed() {
            guard !hop.isEmpty else { break }
            client = String(hop)
            if !trustedProxies.contains(client) { break }
        }
        return client
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return text[first...last]
    }
}

