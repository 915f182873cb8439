extension ObservableType {
    /// Splits the elements into groups by the key `keySelector` gives them: sends a
    /// `GroupedObservable` the first time a key appears, then that group receives the
    /// elements with its key. The groups end with the source's completion or error; a thrown
    /// error ends everything with it.
    ///
    /// The source subscription lives until the outer subscription and every subscription to
    /// a group are disposed.
    ///
    /// - parameter keySelector: Gives the key of an element.
    /// - returns: A sequence of groups.
    public func groupBy<Key: Hashable>(keySelector: @escaping (Element) throws -> Key) -> Observable<GroupedObservable<Key, Element>> {
        GroupBy(source: asObservable(), keySelector: keySelector)
    }
}

private final class GroupBySink<Key: Hashable, Element, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == GroupedObservable<Key, Element> {
    private let keySelector: (Element) throws -> Key
    /// Only touched by the source's events, which never overlap.
    private var groups: [Key: PublishSubject<Element>] = [:]
    private let group = CompositeDisposable()
    /// Keeps the source subscription alive while groups are subscribed.
    private let refCount: RefCountDisposable

    init(keySelector: @escaping (Element) throws -> Key, observer: Observer, cancel: SinkDisposer) {
        self.keySelector = keySelector
        refCount = RefCountDisposable(disposable: group)
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        _ = group.insert(source.subscribe(self))
        return refCount
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let key: Key
            do {
                key = try keySelector(element)
            } catch {
                fail(error)
                return
            }
            if let subject = groups[key] {
                subject.on(.next(element))
            } else {
                let subject = PublishSubject<Element>()
                groups[key] = subject
                forwardOn(.next(GroupedObservable(key: key, source: GroupObservable(subject: subject, refCount: refCount))))
                subject.on(.next(element))
            }
        case .error(let error):
            fail(error)
        case .completed:
            for subject in groups.values {
                subject.on(.completed)
            }
            forwardOn(.completed)
            group.dispose()
            dispose()
        }
    }

    private func fail(_ error: Swift.Error) {
        for subject in groups.values {
            subject.on(.error(error))
        }
        forwardOn(.error(error))
        group.dispose()
        dispose()
    }
}

/// One group's elements: subscribing holds a reference to the source subscription.
private final class GroupObservable<Element>: Producer<Element> {
    private let subject: PublishSubject<Element>
    private let refCount: RefCountDisposable

    init(subject: PublishSubject<Element>, refCount: RefCountDisposable) {
        self.subject = subject
        self.refCount = refCount
        super.init()
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let release = refCount.retain()
        let subscription = subject.subscribe(observer)
        // Unsubscribe first: releasing may free the subject, which must see the removal.
        return Disposables.create(subscription, release)
    }
}

private final class GroupBy<Key: Hashable, Element>: Producer<GroupedObservable<Key, Element>> {
    private let source: Observable<Element>
    private let keySelector: (Element) throws -> Key

    init(source: Observable<Element>, keySelector: @escaping (Element) throws -> Key) {
        self.source = source
        self.keySelector = keySelector
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == GroupedObservable<Key, Element> {
        let sink = GroupBySink(keySelector: keySelector, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}
