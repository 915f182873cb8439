extension ObservableType {
    /// On an error of type `Error`, lets `notificationHandler` decide: it gets the sequence of
    /// the source's errors and returns a trigger. After each error the result waits for the
    /// trigger: its next element subscribes to the source again, its completion completes the
    /// result and its error fails it. A trigger that terminated before an error is seen when
    /// the next error comes (then the result ends, as in RxSwift). Errors of another type
    /// fail the result at once.
    ///
    /// - parameter notificationHandler: Makes the trigger from the errors.
    /// - returns: The source's elements, through the resubscriptions the trigger asks for.
    public func retry<TriggerObservable: ObservableType, Error: Swift.Error>(when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable) -> Observable<Element> {
        RetryWhen<Element, Error, TriggerObservable.Element>(source: asObservable()) { errors in
            notificationHandler(errors).asObservable()
        }
    }

    /// On an error, lets `notificationHandler` decide: it gets the sequence of the source's
    /// errors and returns a trigger. After each error the result waits for the trigger: its
    /// next element subscribes to the source again, its completion completes the result and
    /// its error fails it. A trigger that terminated before an error is seen when the next
    /// error comes (then the result ends, as in RxSwift).
    ///
    /// - parameter notificationHandler: Makes the trigger from the errors.
    /// - returns: The source's elements, through the resubscriptions the trigger asks for.
    public func retry<TriggerObservable: ObservableType>(when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable) -> Observable<Element> {
        RetryWhen<Element, Swift.Error, TriggerObservable.Element>(source: asObservable()) { errors in
            notificationHandler(errors).asObservable()
        }
    }
}

/// The trigger's output goes to `notifier` from the start; each error subscribes a fresh
/// `RetryWhenTriggerObserver` to it, so only what the trigger sends after an error (or how it
/// ended before) answers that error. No lock: source events stop at an error and the trigger
/// is listened to only until it answers, so the two never overlap.
private final class RetryWhenSink<ErrorType, Trigger, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    let resubscription: Resubscription<Element>
    private let errors = PublishSubject<ErrorType>()
    private let notifier = PublishSubject<Trigger>()
    private let triggerSubscription = SingleAssignmentDisposable()
    /// The observer of `notifier` waiting to answer the current error.
    let answerSubscription = SerialDisposable()

    init(source: Observable<Element>, observer: Observer, cancel: SinkDisposer) {
        self.resubscription = Resubscription(source: source)
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ makeTrigger: (Observable<ErrorType>) -> Observable<Trigger>) -> Disposable {
        let trigger = makeTrigger(errors.asObservable())
        triggerSubscription.setDisposable(trigger.subscribe(notifier))
        resubscription.request(self)
        return Disposables.create(resubscription.subscription, triggerSubscription, answerSubscription)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .completed:
            forwardOn(event)
            dispose()
        case .error(let error):
            guard let typed = error as? ErrorType else {
                forwardOn(event)
                dispose()
                return
            }
            // The failed subscription ends now, whenever the trigger answers.
            resubscription.disposeCurrent()
            answerSubscription.disposable = notifier.subscribe(RetryWhenTriggerObserver(parent: self))
            errors.onNext(typed)
        }
    }
}

/// Answers one error of a `RetryWhenSink` with what the trigger does next.
private final class RetryWhenTriggerObserver<ErrorType, Trigger, Observer: ObserverType>: ObserverType {
    private let parent: RetryWhenSink<ErrorType, Trigger, Observer>

    init(parent: RetryWhenSink<ErrorType, Trigger, Observer>) {
        self.parent = parent
    }

    func on(_ event: Event<Trigger>) {
        switch event {
        case .next:
            parent.answerSubscription.disposable = Disposables.create()
            parent.resubscription.request(parent)
        case .error(let error):
            parent.forwardOn(.error(error))
            parent.dispose()
        case .completed:
            parent.forwardOn(.completed)
            parent.dispose()
        }
    }
}

private final class RetryWhen<Element, ErrorType, Trigger>: Producer<Element> {
    private let source: Observable<Element>
    private let makeTrigger: (Observable<ErrorType>) -> Observable<Trigger>

    init(source: Observable<Element>, makeTrigger: @escaping (Observable<ErrorType>) -> Observable<Trigger>) {
        self.source = source
        self.makeTrigger = makeTrigger
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = RetryWhenSink<ErrorType, Trigger, Observer>(source: source, observer: observer, cancel: cancel)
        let subscription = sink.run(makeTrigger)
        return (sink: sink, subscription: subscription)
    }
}
