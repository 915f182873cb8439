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

    /// Counts the observer in, subscribes it to the source, and connects if it is the first.
    ///
    /// The lock is held only for the count: subscribing (a subject may replay into the
    /// observer), connecting (subscribes upstream) and disconnecting (tears upstream down)
    /// call out to code that may take other locks, and doing that under this lock deadlocks
    /// against a thread holding such a lock while it subscribes here (RxSwift #2698, #2713).
    /// Being counted first keeps the connection from ending by disposal while the observer
    /// subscribes; if it ends by a terminal event meanwhile and the observer missed it (it
    /// joined the next connection's subject), the observer counts in again.
    func run() -> Disposable {
        while true {
            let (id, connection) = parent.lock.performLocked { () -> (UInt64, SingleAssignmentDisposable?) in
                connectionId = parent.connectionId
                parent.count += 1
                guard parent.count == 1 else { return (connectionId, nil) }
                let connection = SingleAssignmentDisposable()
                parent.connection = connection
                return (connectionId, connection)
            }
            let subscription = parent.source.subscribe(self)
            let stillCounted = parent.lock.performLocked { parent.connectionId == id && !isDisposed }
            if stillCounted {
                connection?.setDisposable(parent.source.connect())
                return Disposables.create {
                    subscription.dispose()
                    self.leave()
                }
            }
            subscription.dispose()
            leave()
            if isDisposed {
                return Disposables.create()
            }
        }
    }

    /// Uncounts the observer from its connection, disconnecting after the last one.
    private func leave() {
        let connection: Disposable? = parent.lock.performLocked {
            // A terminal event already ended this connection.
            guard parent.connectionId == connectionId else { return nil }
            parent.count -= 1
            guard parent.count == 0 else { return nil }
            defer { parent.connection = nil }
            return parent.connection
        }
        connection?.dispose()
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .error, .completed:
            let connection: Disposable? = parent.lock.performLocked {
                guard parent.connectionId == connectionId else { return nil }
                defer {
                    parent.count = 0
                    parent.connectionId &+= 1
                    parent.connection = nil
                }
                return parent.connection
            }
            connection?.dispose()
            forwardOn(event)
            dispose()
        }
    }
}

private final class RefCount<ConnectableSource: ConnectableObservableType>: Producer<ConnectableSource.Element> {
    let source: ConnectableSource
    /// Held only while reading or changing the count and the connection, never while
    /// calling out.
    let lock = RxLock(())
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
