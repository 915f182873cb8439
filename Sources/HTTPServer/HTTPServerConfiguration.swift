import TLS
import WebSocket

/// Settings of an `HTTPServer`; the defaults are the production values.
public struct HTTPServerConfiguration: Sendable {
    /// Address to listen on.
    public var host: String
    /// Port to listen on; 0 picks a free one (see `HTTPServer.localPort`).
    public var port: Int
    /// Directory whose files are served; nil serves no files (only routes, /healthz, WebSockets).
    public var publicDirectory: String?
    /// Largest request head in bytes (431 above).
    public var maxHeadSize: Int
    /// Most header fields in a request (431 above).
    public var maxHeaderCount: Int
    /// Largest request body skipped; bigger bodies get 413 (no route takes a body).
    public var maxBodySize: Int
    /// Time allowed to receive a complete request head (slowloris guard; 408 after).
    public var headTimeout: Duration
    /// Time an idle keep-alive connection stays open.
    public var idleTimeout: Duration
    /// Largest WebSocket message in bytes (close 1009 above).
    public var maxMessageSize: Int
    /// How often each WebSocket peer is pinged; nil disables the heartbeat.
    public var pingInterval: Duration?
    /// How long a pong may take before the peer is dropped.
    public var pongTimeout: Duration
    /// How long the close handshake may take before TCP is closed anyway.
    public var closeTimeout: Duration
    /// Origins allowed to open WebSockets besides the page's own (this server's scheme with the
    /// request's Host); "*" allows any. Requests without Origin are always allowed.
    public var allowedOrigins: [String]?
    /// Whether binary messages reach the handler; if false they close the connection with 1003.
    public var acceptsBinaryMessages: Bool
    /// Unsent output above which a peer is dropped as stuck (reading pauses well before).
    public var maxUnsentBytes: Int
    /// Longest graceful shutdown before the remaining connections are dropped.
    public var shutdownTimeout: Duration
    /// Host names (without port) the server answers for; other Host headers get 421 (the
    /// DNS-rebinding guard). "*" answers any. nil: `host`, localhost, 127.0.0.1 and [::1].
    public var serverNames: [String]? = nil
    /// The certificate and key to serve HTTPS and WSS with; nil serves plain HTTP.
    public var tls: ReloadableTLSContext? = nil
    /// Whether a client's permessage-deflate offer (RFC 7692) is accepted.
    public var perMessageDeflate = true
    /// Listen with `SO_REUSEPORT`: processes that all set it share the port, and the kernel
    /// spreads new connections over them.
    public var reusePort = false
    /// With permessage-deflate, messages of at least this many bytes are sent compressed;
    /// shorter ones go out as they are (the RFC allows both on one connection).
    public var minimumCompressedSize = PerMessageDeflateParameters.defaultMinimumCompressedSize
    /// Where the health check answers: `{"status":"ok"}` while serving, 503 and
    /// `{"status":"draining"}` from the drain grace on. nil: no health check.
    public var healthCheckPath: String? = "/healthz"
    /// Paths kept for WebSocket routes (this one and those under it): one that matches no
    /// route answers 404 and is never looked up as a file. nil: none kept.
    public var webSocketPathPrefix: String? = "/ws"
    /// Paths of the public folder not served (each and those under it answer 404): a page
    /// whose server side is off, say.
    public var hiddenPaths: [String] = []
    /// The security headers of HTML responses (and HSTS over TLS); the strict ones by default.
    public var securityHeaders = SecurityHeaders.strict
    /// Peers (exact IP addresses) whose `X-Forwarded-Proto: https` counts as TLS: the proxies
    /// in front that terminate it, whose responses then carry `Strict-Transport-Security`.
    public var trustedProxies: TrustedProxies = []

    /// A configuration; every parameter defaults to the production value.
    public init(host: String = "127.0.0.1", port: Int = 8080, publicDirectory: String? = "Public",
                maxHeadSize: Int = 16 * 1024, maxHeaderCount: Int = 100, maxBodySize: Int = 64 * 1024,
                headTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(60),
                maxMessageSize: Int = WebSocketProtocolMachine.Configuration.defaultMaxMessageSize, pingInterval: Duration? = .seconds(30),
                pongTimeout: Duration = .seconds(15), closeTimeout: Duration = .seconds(5),
                allowedOrigins: [String]? = nil, acceptsBinaryMessages: Bool = false,
                maxUnsentBytes: Int = 16 << 20, shutdownTimeout: Duration = .seconds(10)) {
        self.host = host
        self.port = port
        self.publicDirectory = publicDirectory
        self.maxHeadSize = maxHeadSize
        self.maxHeaderCount = maxHeaderCount
        self.maxBodySize = maxBodySize
        self.headTimeout = headTimeout
        self.idleTimeout = idleTimeout
        self.maxMessageSize = maxMessageSize
        self.pingInterval = pingInterval
        self.pongTimeout = pongTimeout
        self.closeTimeout = closeTimeout
        self.allowedOrigins = allowedOrigins
        self.acceptsBinaryMessages = acceptsBinaryMessages
        self.maxUnsentBytes = maxUnsentBytes
        self.shutdownTimeout = shutdownTimeout
    }
}
