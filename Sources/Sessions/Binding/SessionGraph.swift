import RxSwift

/// One session's running graph: the input subjects and what disposes the output
/// subscriptions, four words in all (returned by the view model's build, which runs in
/// unspecialised code: a larger graph was copied there through value witnesses).
struct SessionGraph {
    let feeds: SessionFeeds
    /// What disposes the outputs' subscriptions (those that have something to dispose): the one
    /// itself when it is an operator's disposer (a sum), else one object that disposes each
    /// in order; nil with nothing to dispose.
    let disposal: OutputDisposal?

    init(feeds: CollectedFeeds, subscriptions: CollectedSubscriptions) {
        self.feeds = SessionFeeds(feeds)
        if let first = subscriptions.first {
            if subscriptions.second == nil, let disposer = first as? SinkDisposer {
                disposal = .one(disposer)
            } else {
                disposal = .many(OutputSubscriptions(first: first, second: subscriptions.second, rest: subscriptions.rest))
            }
        } else {
            disposal = nil
        }
    }

    /// Its two parts, moved out (no retain of either).
    consuming func parts() -> (feeds: SessionFeeds, disposal: OutputDisposal?) {
        (feeds, disposal)
    }
}

/// The inputs' feeds as a session's build collects them, in order, each as its object (its
/// subject or feed): the first three kept apart, as `SessionFeeds` keeps them, so a view
/// model with up to three inputs makes no array per session (one made and freed cost about
/// 250 instructions a session).
struct CollectedFeeds {
    private(set) var first: AnyObject?
    private(set) var second: AnyObject?
    private(set) var third: AnyObject?
    /// Those after the third.
    private(set) var rest: [AnyObject] = []

    mutating func append(_ feed: WireInputs.Feed) {
        let object = Self.object(feed)
        if first == nil {
            first = object
        } else if second == nil {
            second = object
        } else if third == nil {
            third = object
        } else {
            rest.append(object)
        }
    }

    /// The subject of a text or tap input, or the value feed of a value input.
    private static func object(_ feed: WireInputs.Feed) -> AnyObject {
        switch feed {
        case .text(let subject): return subject
        case .observedText(let feed): return feed
        case .initialText(let feed): return feed
        case .tap(let subject): return subject
        case .limitedTap(let feed): return feed
        case .value(let feed): return feed
        }
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
