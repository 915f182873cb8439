import Synchronization

extension ObservableType {
    /// For each subscription: makes a subject with `subjectSelector`, lets `selector` build a
    /// sequence from the subject's side (subscribe to it as often as needed), subscribes to
    /// that sequence, then connects the subject to `self`.
    ///
    /// - parameter subjectSelector: Makes the subject shared within one subscription.
    /// - parameter selector: Builds the result from the shared sequence.
    /// - returns: The sequence `selector` builds.
    public func multicast<Subject: SubjectType, Result>(_ subjectSelector: @escaping () throws -> Subject, selector: @escaping (Observable<Subject.Element>) throws -> Observable<Result>) -> Observable<Result> where Subject.Observer.Element == Element {
        Multicast(source: asObservable(), subjectSelector: subjectSelector, selector: selector)
    }

    /// A connectable sequence whose observers subscribe to `subject`; `connect()` subscribes
    /// `subject` to `self`.
    ///
    /// - parameter subject: The subject shared by every connection.
    /// - returns: The connectable sequence.
    public func multicast<Subject: SubjectType>(_ subject: Subject) -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element {
        ConnectableObservableAdapter(source: asObservable(), makeSubject: { subject })
    }

    /// A connectable sequence whose observers subscribe to a subject made by `makeSubject`;
    /// each connection gets a new subject once the previous connection ended.
    ///
    /// - parameter makeSubject: Makes the subject of a connection.
    /// - returns: The connectable sequence.
    public func multicast<Subject: SubjectType>(makeSubject: @escaping () -> Subject) -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element {
        ConnectableObservableAdapter(source: asObservable(), makeSubject: makeSubject)
    }

    /// A connectable sequence sharing one subscription through a `PublishSubject`: observers
    /// get the elements sent after they subscribed. Each connection made after the previous
    /// one ended (disposed or terminated) multicasts through a new subject.
    ///
    /// - returns: The connectable sequence.
    public func publish() -> ConnectableObservable<Element> {
        multicast(makeSubject: { PublishSubject() })
    }

    /// A connectable sequence sharing one subscription through a `ReplaySubject`: observers
    /// first get up to `bufferSize` elements sent before they subscribed. Each connection made
    /// after the previous one ended starts with a new, empty subject.
    ///
    /// - parameter bufferSize: The most elements replayed.
    /// - returns: The connectable sequence.
    public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
        multicast(makeSubject: { ReplaySubject.create(bufferSize: bufferSize) })
    }

    /// A connectable sequence sharing one subscription through a `ReplaySubject`: observers
    /// first get every element sent before they subscribed. Each connection made after the
    /// previous one ended starts with a new, empty subject.
    ///
    /// - returns: The connectable sequence.
    public func replayAll() -> ConnectableObservable<Element> {
        multicast(makeSubject: { ReplaySubject.createUnbounded() })
    }
}

/// The connectable sequence of `multicast`: observers subscribe to the current subject;
/// `connect()` subscribes it to the source.
final class ConnectableObservableAdapter<Subject: SubjectType>: ConnectableObservable<Subject.Element> {
    fileprivate let source: Observable<Subject.Observer.Element>
    private let makeSubject: () -> Subject
    /// Held while reading or changing the subject and the connection, never while calling
    /// out (subscribing upstream, a subject replaying): that would deadlock against a thread
    /// that holds a lock of its own while it subscribes here (RxSwift #2698, #2713).
    fileprivate let lock = RecursiveLock()
    /// Guarded by `lock`: the subject of the current (or next) connection.
    fileprivate var subject: Subject?
    /// Guarded by `lock`: the current connection.
    fileprivate var connection: MulticastConnection<Subject>?

    init(source: Observable<Subject.Observer.Element>, makeSubject: @escaping () -> Subject) {
        self.source = source
        self.makeSubject = makeSubject
        super.init()
    }

    /// Called holding `lock`.
    private var lazySubject: Subject {
        if let subject {
            return subject
        }
        let subject = makeSubject()
        self.subject = subject
        return subject
    }

    override func connect() -> Disposable {
        let (connection, subscription): (MulticastConnection<Subject>, SingleAssignmentDisposable?) = lock.performLocked {
            if let current = self.connection {
                return (current, nil)
            }
            let subscription = SingleAssignmentDisposable()
            let connection = MulticastConnection(parent: self, subjectObserver: lazySubject.asObserver(), subscription: subscription)
            self.connection = connection
            return (connection, subscription)
        }
        // A connection disposed meanwhile disposes this subscription as soon as it is set.
        subscription?.setDisposable(source.subscribe(connection))
        return connection
    }

    /// Subscribes `observer` to the subject of the current (or next) connection. If that
    /// connection ends while the observer subscribes, it may land on the ended subject, as in
    /// RxSwift; `refCount()` counts its observers in before subscribing, so its connection
    /// cannot end by disposal meanwhile, and re-subscribes those that missed an end by a
    /// terminal event.
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Subject.Element {
        lock.performLocked { lazySubject }.subscribe(observer)
    }
}

/// One connection of a `ConnectableObservableAdapter`: forwards the source's events to the
/// subject; ends (and lets the next `connect()` start afresh) on disposal or a terminal event.
final class MulticastConnection<Subject: SubjectType>: ObserverType, Disposable {
    typealias Element = Subject.Observer.Element

    /// Guarded by the parent's `lock`, like `subscription`; `nil` once disposed.
    private var parent: ConnectableObservableAdapter<Subject>?
    private var subscription: Disposable?
    private let lock: RecursiveLock
    private let subjectObserver: Subject.Observer
    private let disposed = Atomic<Bool>(false)

    init(parent: ConnectableObservableAdapter<Subject>, subjectObserver: Subject.Observer, subscription: Disposable) {
        self.parent = parent
        self.lock = parent.lock
        self.subjectObserver = subjectObserver
        self.subscription = subscription
    }

    func on(_ event: Event<Element>) {
        if disposed.load(ordering: .acquiring) {
            return
        }
        if event.isStopEvent {
            dispose()
        }
        subjectObserver.on(event)
    }

    func dispose() {
        let subscription: Disposable? = lock.performLocked {
            disposed.store(true, ordering: .releasing)
            guard let parent else { return nil }
            if parent.connection === self {
                parent.connection = nil
                parent.subject = nil
            }
            self.parent = nil
            let subscription = self.subscription
            self.subscription = nil
            return subscription
        }
        subscription?.dispose()
    }
}

private final class MulticastSink<Subject: SubjectType, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Result = Observer.Element

    private let parent: Multicast<Subject, Result>

    init(parent: Multicast<Subject, Result>, observer: Observer, cancel: SinkDisposer) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        do {
            let subject = try parent.subjectSelector()
            let connectable = ConnectableObservableAdapter(source: parent.source, makeSubject: { subject })
            let observable = try parent.selector(connectable)
            let subscription = observable.subscribe(self)
            let connection = connectable.connect()
            return Disposables.create(subscription, connection)
        } catch {
            forwardOn(.error(error))
            dispose()
            return Disposables.create()
        }
    }

    func on(_ event: Event<Result>) {
        forwardOn(event)
        if event.isStopEvent {
            dispose()
        }
    }
}

private final class Multicast<Subject: SubjectType, Result>: Producer<Result> {
    typealias SubjectSelector = () throws -> Subject
    typealias Selector = (Observable<Subject.Element>) throws -> Observable<Result>

    let source: Observable<Subject.Observer.Element>
    let subjectSelector: SubjectSelector
    let selector: Selector

    init(source: Observable<Subject.Observer.Element>, subjectSelector: @escaping SubjectSelector, selector: @escaping Selector) {
        self.source = source
        self.subjectSelector = subjectSelector
        self.selector = selector
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Result {
        let sink = MulticastSink(parent: self, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
