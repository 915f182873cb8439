/// When a test observable was subscribed and unsubscribed (`Int.max`: still subscribed).
public struct Subscription: Equatable, Hashable, CustomDebugStringConvertible, Sendable {
    /// Subscription time.
    public let subscribe: TestTime
    /// Unsubscription time.
    public let unsubscribe: TestTime

    /// A subscription at `subscribe`, still active.
    public init(_ subscribe: TestTime) {
        self.init(subscribe, Int.max)
    }

    /// A subscription from `subscribe` to `unsubscribe`.
    public init(_ subscribe: TestTime, _ unsubscribe: TestTime) {
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
    }

    /// `(subscribe : unsubscribe)`, with `Infinity` while still subscribed (RxSwift's form).
    public var debugDescription: String {
        let end = unsubscribe == Int.max ? "Infinity" : String(unsubscribe)
        return "(\(subscribe) : \(end))"
    }
}
