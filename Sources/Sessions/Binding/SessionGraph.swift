import RxSwift

/// One session's running graph: the input subjects and the output subscriptions.
struct SessionGraph {
    let feeds: [WireInputs.Feed]
    /// The outputs' subscriptions, those that have something to dispose.
    let subscriptions: [AnyObject & Disposable]

    /// What disposes them all: the one itself when there is one (a sum), else one object
    /// that disposes each in order.
    var disposable: (AnyObject & Disposable)? {
        switch subscriptions.count {
        case 0: nil
        case 1: subscriptions[0]
        default: OutputSubscriptions(subscriptions)
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
