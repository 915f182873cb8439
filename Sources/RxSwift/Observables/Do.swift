extension ObservableType {
    /// Runs side effects for the events and the lifetime of each subscription, passing the
    /// events through unchanged. An error thrown by an event handler is sent in place of
    /// the event (thrown by an `after…` handler, it is sent after the event; after a
    /// terminal event it is dropped).
    ///
    /// - parameter onNext: Runs before an element is sent.
    /// - parameter afterNext: Runs after an element is sent.
    /// - parameter onError: Runs before the error is sent.
    /// - parameter afterError: Runs after the error is sent.
    /// - parameter onCompleted: Runs before completion is sent.
    /// - parameter afterCompleted: Runs after completion is sent.
    /// - parameter onSubscribe: Runs before subscribing to the source.
    /// - parameter onSubscribed: Runs after subscribing to the source.
    /// - parameter onDispose: Runs when the subscription is disposed (termination included).
    /// - returns: The source sequence, with the side effects.
    ///
    /// Inlinable, so the two event closures are specialized in the caller's module: unspecialized,
    /// each event looked up `Event<Element>`'s metadata in them.
    @inlinable
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Observable<Element> {
        Do(
            source: asObservable(),
            eventHandler: { event in
                switch event {
                case .next(let element): try onNext?(element)
                case .error(let error): try onError?(error)
                case .completed: try onCompleted?()
                }
            },
            afterEventHandler: { event in
                switch event {
                case .next(let element): try afterNext?(element)
                case .error(let error): try afterError?(error)
                case .completed: try afterCompleted?()
                }
            },
            onSubscribe: onSubscribe,
            onSubscribed: onSubscribed,
            onDispose: onDispose
        )
    }
}

@usableFromInline
final class DoSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    @usableFromInline
    typealias Element = Observer.Element
    @usableFromInline
    typealias EventHandler = (Event<Element>) throws -> Void

    @usableFromInline
    let eventHandler: EventHandler
    @usableFromInline
    let afterEventHandler: EventHandler

    @inlinable
    init(eventHandler: @escaping EventHandler, afterEventHandler: @escaping EventHandler, observer: Observer, cancel: SinkDisposer) {
        self.eventHandler = eventHandler
        self.afterEventHandler = afterEventHandler
        super.init(observer: observer, cancel: cancel)
    }

    @inlinable
    func on(_ event: Event<Element>) {
        do {
            try eventHandler(event)
        } catch {
            forwardOn(.error(error))
            dispose()
            return
        }
        forwardOn(event)
        do {
            try afterEventHandler(event)
        } catch {
            // After a terminal event the observer has stopped: the error goes nowhere.
            if !event.isStopEvent {
                forwardOn(.error(error))
            }
            dispose()
            return
        }
        if event.isStopEvent {
            dispose()
        }
    }
}

// Inlinable, with an erased run, so that a `do` runs specialised in the app's module (see
// `Producer.ErasedRun`). The login graph that measured it no longer has a `do`, so it is to go
// back to RxSwift's private form (test_docs.py lists it as such).
@usableFromInline
final class Do<Element>: Producer<Element> {
    @usableFromInline
    typealias EventHandler = (Event<Element>) throws -> Void

    @usableFromInline
    let source: Observable<Element>
    @usableFromInline
    let eventHandler: EventHandler
    @usableFromInline
    let afterEventHandler: EventHandler
    @usableFromInline
    let onSubscribe: (() -> Void)?
    @usableFromInline
    let onSubscribed: (() -> Void)?
    @usableFromInline
    let onDispose: (() -> Void)?

    @inlinable
    init(source: Observable<Element>, eventHandler: @escaping EventHandler, afterEventHandler: @escaping EventHandler, onSubscribe: (() -> Void)?, onSubscribed: (() -> Void)?, onDispose: (() -> Void)?) {
        self.source = source
        self.eventHandler = eventHandler
        self.afterEventHandler = afterEventHandler
        self.onSubscribe = onSubscribe
        self.onSubscribed = onSubscribed
        self.onDispose = onDispose
        super.init(erasedRun: { producer, observer, cancel in
            let parent = unsafeDowncast(producer, to: Do<Element>.self)
            parent.onSubscribe?()
            let sink = parent.makeSink(observer, cancel: cancel)
            let sourceSubscription = parent.source.subscribeErased(AnyObserver(eventHandler: sink.on))
            return (sink: sink, subscription: parent.subscribed(sourceSubscription))
        })
    }

    /// Makes the sink, for both run paths: `erasedRun` and `run`.
    @inlinable @inline(__always)
    func makeSink<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> DoSink<Observer> where Observer.Element == Element {
        DoSink(eventHandler: eventHandler, afterEventHandler: afterEventHandler, observer: observer, cancel: cancel)
    }

    /// Runs `onSubscribed` and returns the subscription to keep: the source's, with
    /// `onDispose` after it if there is one.
    @inlinable
    func subscribed(_ sourceSubscription: Disposable) -> Disposable {
        onSubscribed?()
        guard let onDispose else {
            return sourceSubscription
        }
        return Disposables.create {
            sourceSubscription.dispose()
            onDispose()
        }
    }

    @inlinable
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        onSubscribe?()
        let sink = makeSink(observer, cancel: cancel)
        let sourceSubscription = source.subscribe(sink)
        return (sink: sink, subscription: subscribed(sourceSubscription))
    }
}
