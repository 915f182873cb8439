extension ObservableType {
    /// A sequence of one element followed by completion.
    ///
    /// - parameter element: The element.
    /// - returns: The observable sequence.
    @inlinable
    public static func just(_ element: Element) -> Observable<Element> {
        Just(element: element)
    }

    /// A sequence of one element followed by completion, both sent on `scheduler`.
    ///
    /// - parameter element: The element.
    /// - parameter scheduler: The scheduler the events are sent on.
    /// - returns: The observable sequence.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        JustScheduled(element: element, scheduler: scheduler)
    }
}

// Inlinable, not RxSwift's private form, for the rx-bench rows "flatMap x5 pumping" and
// "flatMapLatest x5 pumping": their operators recognise a `Just` inner by its type.
/// Sends its element and completion straight to the observer: no sink is needed.
@usableFromInline
final class Just<Element>: Producer<Element> {
    @usableFromInline
    let element: Element
    /// Sends the events to an erased observer. Made in the `@inlinable` initialiser, so in
    /// optimised client code it is specialised (building an `Event` in unspecialised code costs
    /// a metadata look-up); it captures nothing, so it allocates nothing.
    @usableFromInline
    let deliver: (Just<Element>, AnyObserver<Element>) -> Void

    @inlinable
    init(element: Element) {
        self.element = element
        self.deliver = { just, observer in
            observer.on(.next(just.element))
            observer.on(.completed)
        }
        super.init()
    }

    @inlinable
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        observer.on(.next(element))
        observer.on(.completed)
        return Disposables.create()
    }

    @inlinable
    override func subscribeErased(_ observer: AnyObserver<Element>) -> Disposable {
        deliver(self, observer)
        return Disposables.create()
    }

    @inlinable
    override func subscribeErasedObject(_ observer: AnyObserver<Element>) -> (AnyObject & Disposable)? {
        deliver(self, observer)
        return nil
    }
}

private final class JustScheduledSink<Observer: ObserverType>: Sink<Observer> {
    func run(_ parent: JustScheduled<Observer.Element>) -> Disposable {
        parent.scheduler.schedule(parent.element) { element in
            self.forwardOn(.next(element))
            return parent.scheduler.schedule(()) { _ in
                self.forwardOn(.completed)
                self.dispose()
                return Disposables.create()
            }
        }
    }
}

private final class JustScheduled<Element>: Producer<Element> {
    let element: Element
    let scheduler: ImmediateSchedulerType

    init(element: Element, scheduler: ImmediateSchedulerType) {
        self.element = element
        self.scheduler = scheduler
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = JustScheduledSink(observer: observer, cancel: cancel)
        let subscription = sink.run(self)
        return (sink: sink, subscription: subscription)
    }
}
