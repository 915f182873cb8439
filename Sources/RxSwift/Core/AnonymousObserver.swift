/// An observer that calls a closure for each event (used by `subscribe(onNext:...)`).
@usableFromInline
final class AnonymousObserver<Element>: ObserverBase<Element> {
    @usableFromInline
    typealias EventHandler = (Event<Element>) -> Void

    @usableFromInline
    let eventHandler: EventHandler

    @inlinable
    init(_ eventHandler: @escaping EventHandler) {
        self.eventHandler = eventHandler
        super.init()
        Resources.add(1)
    }

    @inlinable
    override func onCore(_ event: Event<Element>) {
        eventHandler(event)
    }

    deinit {
        Resources.add(-1)
    }
}
