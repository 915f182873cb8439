extension ObservableType {
    /// A sequence that owns a resource: for each subscriber it makes the resource with
    /// `resourceFactory`, subscribes to the sequence `observableFactory` makes from it, and
    /// disposes the resource when that subscription ends (terminates or is disposed).
    /// Errors thrown by the factories are sent as the sequence's error.
    ///
    /// - parameter resourceFactory: Makes the resource.
    /// - parameter observableFactory: Makes the sequence that uses the resource.
    /// - returns: The observable sequence.
    public static func using<Resource: Disposable>(_ resourceFactory: @escaping () throws -> Resource, observableFactory: @escaping (Resource) throws -> Observable<Element>) -> Observable<Element> {
        Using(resourceFactory: resourceFactory, observableFactory: observableFactory)
    }
}

private final class UsingSink<Resource: Disposable, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    func run(_ parent: Using<Element, Resource>) -> Disposable {
        var resource: Resource?
        do {
            let made = try parent.resourceFactory()
            resource = made
            let source = try parent.observableFactory(made)
            // The source subscription is disposed before the resource it uses.
            return Disposables.create(source.subscribe(self), made)
        } catch {
            forwardOn(.error(error))
            dispose()
            if let resource {
                return resource
            }
            return Disposables.create()
        }
    }

    func on(_ event: Event<Element>) {
        forwardOn(event)
        if event.isStopEvent {
            dispose()
        }
    }
}

private final class Using<Element, Resource: Disposable>: Producer<Element> {
    let resourceFactory: () throws -> Resource
    let observableFactory: (Resource) throws -> Observable<Element>

    init(resourceFactory: @escaping () throws -> Resource, observableFactory: @escaping (Resource) throws -> Observable<Element>) {
        self.resourceFactory = resourceFactory
        self.observableFactory = observableFactory
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = UsingSink<Resource, Observer>(observer: observer, cancel: cancel)
        let subscription = sink.run(self)
        return (sink: sink, subscription: subscription)
    }
}
