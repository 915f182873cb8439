import EventLoop
import Synchronization

/// A request as a deferred route or an upgrade's admission sees it.
public struct HTTPRequestContext: Sendable {
    /// The request head.
    public let head: HTTPRequestHead
    /// Its body, when it had one of at most `HTTPRequestDecoder.Limits.maxKeptBodySize` bytes.
    public let body: [UInt8]
    /// The peer's IP address (a proxy's, behind one).
    public var peerAddress: String? { peer?.text }
    /// The same, written as text only when read.
    package let peer: PeerAddress?
    /// Whether the request came over TLS to this server.
    public let isTLS: Bool
    /// Whether it carries exactly one `Origin`, and that origin is the page's own or an
    /// allowed one (as for a WebSocket upgrade): what a request that changes state must show.
    public let originAllowed: Bool
}

/// Whether an upgrade goes ahead, and what its handler is made with.
public enum UpgradeAdmission {
    /// Upgrade, and make the handler with this (a signed-in user, say; nil for none).
    case admit(AnyObject?)
    /// Answer this instead of upgrading.
    case refuse(HTTPResponse)
}

/// Answers a deferred request or an upgrade's admission from any thread, once: the answer
/// hops to the connection's loop. A second call is ignored.
public struct HTTPAnswer<Value>: @unchecked Sendable {  // `deliver` runs only on the loop thread, where `execute` sends it
    private let loop: EventLoop
    private let deliver: (Value) -> Void
    /// Set by the first call: a late second answer must not answer the connection's next request.
    private let used = UsedOnce()

    init(loop: EventLoop, deliver: @escaping (Value) -> Void) {
        self.loop = loop
        self.deliver = deliver
    }

    /// Sends `value` to the connection (at once when called on its loop); only the first call counts.
    public func callAsFunction(_ value: Value) {
        guard used.take() else { return }
        if loop.inEventLoop {
            deliver(value)
        } else {
            let box = SendableBox(value: value, deliver: deliver)
            loop.execute { box.deliver(box.value) }
        }
    }
}

/// Whether an answer was given yet.
private final class UsedOnce: Sendable {
    private let used = Atomic(false)

    /// True for the first call only.
    func take() -> Bool { !used.exchange(true, ordering: .acquiringAndReleasing) }
}

/// A value and its delivery carried to the loop thread, where alone they are used.
private struct SendableBox<Value>: @unchecked Sendable {  // created on one thread, used only on the loop after `execute`
    let value: Value
    let deliver: (Value) -> Void
}

/// A route whose response is made later (a database write off the loop, say).
struct DeferredRoute {
    let methods: Set<String>
    let handler: (HTTPRequestContext, HTTPAnswer<HTTPResponse>) -> Void
}

/// A WebSocket route whose upgrades are admitted first.
struct AdmittedWebSocketRoute {
    let admit: (HTTPRequestContext, HTTPAnswer<UpgradeAdmission>) -> Void
    let makeHandler: (AnyObject?) -> any WebSocketHandler
}

extension HTTPServer {
    /// Answers `methods` on `path` with `handler`, which may answer later from any thread
    /// (the connection waits, reading no further request, up to the idle timeout; then 503).
    public func addDeferredRoute(_ path: String, methods: Set<String>,
                                 _ handler: @escaping (HTTPRequestContext, HTTPAnswer<HTTPResponse>) -> Void) {
        routes.update(path) { $0.deferred = DeferredRoute(methods: methods, handler: handler) }
    }

    /// Routes upgrade requests for `path` through `admit`, which decides (at once, or later
    /// from any thread) whether the upgrade goes ahead; an admitted one gets a handler from
    /// `makeHandler` with what `admit` gave.
    public func addWebSocketRoute(_ path: String, admit: @escaping (HTTPRequestContext, HTTPAnswer<UpgradeAdmission>) -> Void,
                                  _ makeHandler: @escaping (AnyObject?) -> any WebSocketHandler) {
        routes.update(path) { $0.admittedWebSocket = AdmittedWebSocketRoute(admit: admit, makeHandler: makeHandler) }
    }
}
