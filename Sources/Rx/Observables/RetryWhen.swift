extension ObservableType {
    /// On an error, lets `notificationHandler` decide: it gets the sequence of the source's
    /// errors and returns a trigger; each element of the trigger subscribes to the source
    /// again, the trigger completing completes the result, its error fails it. Errors that
    /// are not of type `Error` fail the trigger's input with themselves.
    ///
    /// - parameter notificationHandler: Makes the trigger from the errors.
    /// - returns: The source's elements, through the resubscriptions the trigger asks for.
    public func retry<TriggerObservable: ObservableType, Error: Swift.Error>(when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable) -> Observable<Element> {
        RetryWhen(source: asObservable()) { errors in
            let typed = errors.map { error -> Error in
                guard let typed = error as? Error else { throw error }
                return typed
            }
            return notificationHandler(typed).asObservable()
        }
    }

    /// On an error, lets `notificationHandler` decide: it gets the sequence of the source's
    /// errors and returns a trigger; each element of the trigger subscribes to the source
    /// again, the trigger completing completes the result, its error fails it.
    ///
    /// - parameter notificationHandler: Makes the trigger from the errors.
    /// - returns: The source's elements, through the resubscriptions the trigger asks for.
    public func retry<TriggerObservable: ObservableType>(when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable) -> Observable<Element> {
        RetryWhen(source: asObservable()) { errors in
            notificationHandler(errors).asObservable()
        }
    }
}

private final class RetryWhenSink<Trigger, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    /// Held while handling the source's and the trigger's events, which may come from
    /// different threads (recursive: the trigger usually answers an error at once).
    let lock = RecursiveLock()
    let resubscription: Resubscription<Element>
    private let errors = PublishSubject<Swift.Error>()
    private let triggerSubscription = SingleAssignmentDisposable()

    init(source: Observable<Element>, observer: Observer, cancel: Cancelable) {
        self.resubscription = Resubscription(source: source)
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ makeTrigger: (Observable<Swift.Error>) -> Observable<Trigger>) -> Disposable {
        let trigger = makeTrigger(errors.asObservable())
        triggerSubscription.setDisposable(trigger.subscribe(RetryWhenTriggerObserver(parent: self)))
        // A trigger that terminated at once has already ended the sequence.
        if !isDisposed {
            resubscription.request(self)
        }
        return Disposables.create(resubscription.subscription, triggerSubscription)
    }

    /// Sends the terminal `event` and stops, cancelling a resubscription asked for meanwhile
    /// (called holding `lock`).
    func finish(_ event: Event<Element>) {
        forwardOn(event)
        resubscription.subscription.dispose()
        dispose()
    }

    func on(_ event: Event<Element>) {
        lock.performLocked {
            switch event {
            case .next:
                forwardOn(event)
            case .completed:
                finish(.completed)
            case .error(let error):
                // The failed subscription ends now, whenever the trigger answers.
                resubscription.disposeCurrent()
                errors.onNext(error)
            }
        }
    }
}

private final class RetryWhenTriggerObserver<Trigger, Observer: ObserverType>: ObserverType {
    private let parent: RetryWhenSink<Trigger, Observer>

    init(parent: RetryWhenSink<Trigger, Observer>) {
        self.parent = parent
    }

    func on(_ event: Event<Trigger>) {
        parent.lock.performLocked {
            switch event {
            case .next:
                parent.resubscription.request(parent)
            case .error(let error):
                parent.finish(.error(error))
            case .completed:
                parent.finish(.completed)
            }
        }
    }
}

private final class RetryWhen<Element, Trigger>: Producer<Element> {
    private let source: Observable<Element>
    private let makeTrigger: (Observable<Swift.Error>) -> Observable<Trigger>

    init(source: Observable<Element>, makeTrigger: @escaping (Observable<Swift.Error>) -> Observable<Trigger>) {
        self.source = source
        self.makeTrigger = makeTrigger
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = RetryWhenSink<Trigger, Observer>(source: source, observer: observer, cancel: cancel)
        let subscription = sink.run(makeTrigger)
        return (sink: sink, subscription: subscription)
    }
}
