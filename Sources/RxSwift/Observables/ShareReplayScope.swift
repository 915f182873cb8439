/// How long the subject of `share(replay:scope:)` lives.
public enum SubjectLifetimeScope: Sendable {
    /// The subject lives while the source is connected: once every observer unsubscribed or
    /// the source terminated, the next observer starts a new subscription with nothing
    /// replayed.
    case whileConnected

    /// One subject for ever: after disconnecting, later observers still get the replayed
    /// elements (and the terminal event, if any) and the source is subscribed again.
    case forever
}

extension ObservableType {
    /// Shares one subscription to `self` between all observers, subscribing with the first
    /// observer and unsubscribing after the last; new observers first get up to `replay`
    /// earlier elements.
    ///
    /// - parameter replay: The most elements replayed to a new observer.
    /// - parameter scope: The lifetime of the shared subject (see `SubjectLifetimeScope`).
    /// - returns: The shared sequence.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
        switch scope {
        case .forever:
            if replay == 0 {
                return multicast(PublishSubject()).refCount()
            }
            return multicast(ReplaySubject.create(bufferSize: replay)).refCount()
        case .whileConnected:
            if replay == 0 {
                return multicast(makeSubject: { PublishSubject() }).refCount()
            }
            return multicast(makeSubject: { ReplaySubject.create(bufferSize: replay) }).refCount()
        }
    }
}
