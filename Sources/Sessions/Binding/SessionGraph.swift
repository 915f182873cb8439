import RxSwift

/// One session's running graph: the input subjects and the output subscriptions.
struct SessionGraph {
    let feeds: [WireInputs.Feed]
    /// The outputs' subscriptions, those that have something to dispose.
    let subscriptions: CollectedSubscriptions

    /// What disposes them all: the one itself when it is an operator's disposer (a sum), else
    /// one object that disposes each in order.
    var disposal: OutputDisposal? {
        guard let first = subscriptions.first else { return nil }
        if subscriptions.second == nil, let disposer = first as? SinkDisposer { return .one(disposer) }
        return .many(OutputSubscriptions(first: first, second: subscriptions.second, rest: subscriptions.rest))
    }
}

/// The outputs' subscriptions as a session's build collects them, in order: the first two
/// kept apart, so a view model with one or two outputs (a sum, a login) makes no array per
/// session (one grown and freed cost about 550 instructions a session).
struct CollectedSubscriptions {
    private(set) var first: (AnyObject & Disposable)?
    private(set) var second: (AnyObject & Disposable)?
    /// Those after the second.
    private(set) var rest: [AnyObject & Disposable] = []

    mutating func append(_ subscription: AnyObject & Disposable) {
        if first == nil {
            first = subscription
        } else if second == nil {
            second = subscription
        } else {
            rest.append(subscription)
        }
    }
}

/// A session's output subscriptions as one reference of a known class: with the session's
/// state it takes one word (`Session.State`), where a `Disposable` class existential took two.
enum OutputDisposal {
    /// The one output's subscription, an operator's disposer (`Producer.subscribe`'s).
    case one(SinkDisposer)
    /// Several, or one of another kind.
    case many(OutputSubscriptions)

    func dispose() {
        switch self {
        case .one(let disposer): disposer.dispose()
        case .many(let subscriptions): subscriptions.dispose()
        }
    }
}

/// The subscriptions of a view model's outputs, disposed together. The session disposes it
/// once, on its own thread, so it needs no lock or flag (a `CompositeDisposable` has both,
/// and takes its members as `Disposable`s, an array of conversions more per session).
final class OutputSubscriptions: Disposable {
    private let first: AnyObject & Disposable
    private let second: (AnyObject & Disposable)?
    private let rest: [AnyObject & Disposable]

    /// Kept as collected: joined in one array they would cost one more per session.
    init(first: AnyObject & Disposable, second: (AnyObject & Disposable)?, rest: [AnyObject & Disposable]) {
        self.first = first
        self.second = second
        self.rest = rest
    }

    func dispose() {
        first.dispose()
        second?.dispose()
        for subscription in rest {
            subscription.dispose()
        }
    }
}
