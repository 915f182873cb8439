/// A `Content-Security-Policy` (W3C CSP Level 3): directives and their sources, in the order
/// they are sent.
public struct ContentSecurityPolicy: Sendable, Equatable {
    /// One directive, e.g. `script-src 'self'`.
    public struct Directive: Sendable, Equatable {
        /// The directive's name, e.g. `connect-src`.
        public var name: String
        /// Its sources, e.g. `'self'`; none for a directive that takes none.
        public var sources: [String]

        /// The directive `name` allowing `sources`.
        public init(_ name: String, _ sources: [String]) {
            self.name = name
            self.sources = sources
        }
    }

    /// Stands, among a directive's sources, for the page's own WebSocket origin: `ws://` or
    /// `wss://` (as the page was served) and the request's host, filled in per response.
    public static let pageWebSocketOrigin = "{page-websocket-origin}"

    /// The directives, in the order they are sent.
    public var directives: [Directive]

    /// A policy of `directives`.
    public init(directives: [Directive]) {
        self.directives = directives
    }

    /// Nothing is allowed but what the page needs: scripts, styles and images from its own
    /// origin (and the empty `data:,` icon), WebSockets to its own host only, no plugins, no
    /// `<base>`, forms posted to its own origin only, and no page may frame it.
    public static let strict = ContentSecurityPolicy(directives: [
        Directive("default-src", ["'none'"]),
        Directive("script-src", ["'self'"]),
        Directive("style-src", ["'self'"]),
        Directive("img-src", ["'self'", "data:"]),
        Directive("connect-src", [pageWebSocketOrigin]),
        Directive("base-uri", ["'none'"]),
        Directive("form-action", ["'self'"]),
        Directive("frame-ancestors", ["'none'"]),
    ])

    /// This policy with directive `name` given `sources`: replaced where it is, else added.
    public func setting(_ name: String, to sources: [String]) -> ContentSecurityPolicy {
        var policy = self
        if let index = policy.directives.firstIndex(where: { $0.name == name }) {
            policy.directives[index].sources = sources
        } else {
            policy.directives.append(Directive(name, sources))
        }
        return policy
    }

    /// The header's value, with `pageWebSocketOrigin` standing for `webSocketOrigin`, or
    /// `'self'` when the request named no host that can be written into the policy.
    func headerValue(webSocketOrigin: String?) -> String {
        directives.map { directive in
            let sources = directive.sources.map { $0 == Self.pageWebSocketOrigin ? webSocketOrigin ?? "'self'" : $0 }
            return ([directive.name] + sources).joined(separator: " ")
        }.joined(separator: "; ")
    }
}
