import RxSwift

/// One session's running graph: the input subjects and the output subscriptions.
struct SessionGraph {
    let feeds: [WireInputs.Feed]
    /// The outputs' subscriptions, those that have something to dispose.
    let subscriptions: [AnyObject & Disposable]

    /// What disposes them all: the one itself when it is an operator's disposer (a sum), else
    /// one object that disposes each in order.
    var disposal: OutputDisposal? {
        switch subscriptions.count {
        case 0: nil
        case 1: (subscriptions[0] as? SinkDisposer).map(OutputDisposal.one) ?? .many(OutputSubscriptions(subscriptions))
        default: .many(OutputSubscriptions(subscriptions))
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
    private let subscriptions: [AnyObject & Disposable]

    init(_ subscriptions: [AnyObject & Disposable]) {
        self.subscriptions = subscriptions
    }

    func dispose() {
        for subscription in subscriptions {
            subscription.dispose()
        }
    }
}
