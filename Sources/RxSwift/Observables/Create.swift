import Synchronization

extension ObservableType {
    /// Creates an observable sequence from a subscribe function: `subscribe` runs for each
    /// subscriber with an observer to send events to, and returns the disposable that cancels
    /// the work it started.
    ///
    /// - parameter subscribe: The subscribe function.
    /// - returns: The observable sequence.
    @inlinable
    public static func create(_ subscribe: @escaping (AnyObserver<Element>) -> Disposable) -> Observable<Element> {
        AnonymousObservable(subscribe)
    }
}

@usableFromInline
final class AnonymousObservableSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    @usableFromInline
    typealias Element = Observer.Element

    @usableFromInline
    let isStopped = Atomic<Bool>(false)

    @inlinable
    override init(observer: Observer, cancel: SinkDisposer) {
        super.init(observer: observer, cancel: cancel)
    }

    @inlinable
    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if isStopped.load(ordering: .relaxed) {
                return
            }
            forwardOn(event)
        case .error, .completed:
            if !isStopped.exchange(true, ordering: .acquiringAndReleasing) {
                forwardOn(event)
                dispose()
            }
        }
    }

    @inlinable
    func run(_ parent: AnonymousObservable<Element>) -> Disposable {
        parent.subscribeHandler(AnyObserver(eventHandler: self.on))
    }
}

// Inlinable, not RxSwift's private form, for the rx-bench row "flatMap x5 pumping, inner create".
@usableFromInline
final class AnonymousObservable<Element>: Producer<Element> {
    @usableFromInline
    typealias SubscribeHandler = (AnyObserver<Element>) -> Disposable

    @usableFromInline
    let subscribeHandler: SubscribeHandler

    @inlinable
    init(_ subscribeHandler: @escaping SubscribeHandler) {
        self.subscribeHandler = subscribeHandler
        super.init(erasedRun: { producer, observer, cancel in
            let parent = unsafeDowncast(producer, to: AnonymousObservable<Element>.self)
            let sink = parent.makeSink(observer, cancel: cancel)
            let subscription = sink.run(parent)
            return (sink: sink, subscription: subscription)
        })
    }

    /// Makes the sink, for both run paths: `erasedRun` and `run`.
    @inlinable @inline(__always)
    func makeSink<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> AnonymousObservableSink<Observer> where Observer.Element == Element {
        AnonymousObservableSink(observer: observer, cancel: cancel)
    }

    @inlinable
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = makeSink(observer, cancel: cancel)
        let subscription = sink.run(self)
        return (sink: sink, subscription: subscription)
    }
}
