extension ConnectableObservableType {
    /// A sequence that connects `self` when its first observer subscribes and disconnects
    /// when the last one unsubscribes (or the connection ends with a terminal event); the
    /// next subscriber connects again.
    ///
    /// - returns: The reference-counted sequence.
    public func refCount() -> Observable<Element> {
        RefCount(source: self)
    }
}

private final class RefCountSink<ConnectableSource: ConnectableObservableType, Observer: ObserverType>: Sink<Observer>, ObserverType where ConnectableSource.Element == Observer.Element {
    typealias Element = Observer.Element

    private let parent: RefCount<ConnectableSource>
    /// The connection this observer counts in (set holding the parent's lock in `run`;
    /// matches no connection before, so a terminal event replayed during the subscription
    /// does not end the current connection).
    private var connectionId = UInt64.max

    init(parent: RefCount<ConnectableSource>, observer: Observer, cancel: SinkDisposer) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        // Subscribing and connecting under the lock, and disconnecting under it too, keeps a
        // subscriber from joining a connection that another thread is ending (it would be
        // left on a subject the next connection no longer feeds).
        let (subscription, counted): (Disposable, Bool) = parent.lock.performLocked {
            let subscription = parent.source.subscribe(self)
            connectionId = parent.connectionId
            if isDisposed {
                return (subscription, false)
            }
            parent.count += 1
            if parent.count == 1 {
                parent.connection = parent.source.connect()
            }
            return (subscription, true)
        }
        guard counted else { return subscription }
        return Disposables.create {
            subscription.dispose()
            self.parent.lock.performLocked {
                // A terminal event already ended this connection.
                guard self.parent.connectionId == self.connectionId else { return }
                self.parent.count -= 1
                guard self.parent.count == 0 else { return }
                let connection = self.parent.connection
                self.parent.connection = nil
                connection?.dispose()
            }
        }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .error, .completed:
            parent.lock.performLocked {
                guard parent.connectionId == connectionId else { return }
                let connection = parent.connection
                parent.count = 0
                parent.connectionId &+= 1
                parent.connection = nil
                connection?.dispose()
            }
            forwardOn(event)
            dispose()
        }
    }
}

private final class RefCount<ConnectableSource: ConnectableObservableType>: Producer<ConnectableSource.Element> {
    let source: ConnectableSource
    /// Held while changing the count and the connection (recursive: connecting may send
    /// events synchronously to observers that subscribe or unsubscribe again).
    let lock = RecursiveLock()
    /// Guarded by `lock`, as are the two below: the subscribed observers.
    var count = 0
    /// Id of the current connection; observers of an ended connection no longer count.
    var connectionId: UInt64 = 0
    var connection: Disposable?

    init(source: ConnectableSource) {
        self.source = source
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == ConnectableSource.Element {
        let sink = RefCountSink(parent: self, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
