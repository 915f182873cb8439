// An app imports RxLive alone: the declarations it writes (WireViewModel, WireOutput,
// WireInputs, ProtocolError, RateLimit) are Sessions', re-exported here, and so are the
// security headers it may change (HTTPServer's).
@_exported import Sessions
@_exported import struct HTTPServer.SecurityHeaders
@_exported import struct HTTPServer.ContentSecurityPolicy
@_exported import struct HTTPServer.TrustedProxies
// swift-metrics, which `main()` bootstraps with the registry `/metrics` shows: an app's own
// `Counter(label:)` and `Metrics.Timer(label:)` need no dependency of their own.
@_exported import Metrics
