/// Whether the element that ends `take(while:)` / `take(until:)` is sent.
public enum TakeBehavior: Sendable {
    /// The element that ends the sequence is sent before completion.
    case inclusive
    /// The element that ends the sequence is dropped.
    case exclusive
}

extension ObservableType {
    /// Sends elements while `predicate` holds; the first element for which it fails completes
    /// the sequence (sent first with `.inclusive`). A thrown error ends the sequence with it.
    ///
    /// - parameter predicate: The test applied to each element.
    /// - parameter behavior: Whether the failing element is sent (default `.exclusive`).
    /// - returns: The leading elements that pass.
    public func take(while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Observable<Element> {
        TakeWhile(source: asObservable(), behavior: behavior, stopsOn: { try !predicate($0) })
    }

    /// Sends elements until `predicate` holds for one; that element completes the sequence
    /// (sent first with `.inclusive`). A thrown error ends the sequence with it.
    ///
    /// - parameter predicate: The test that ends the sequence.
    /// - parameter behavior: Whether the element that passes is sent (default `.exclusive`).
    /// - returns: The elements before the first that passes.
    public func take(until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Observable<Element> {
        TakeWhile(source: asObservable(), behavior: behavior, stopsOn: predicate)
    }
}

private final class TakeWhileSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let behavior: TakeBehavior
    private let stopsOn: (Element) throws -> Bool

    init(behavior: TakeBehavior, stopsOn: @escaping (Element) throws -> Bool, observer: Observer, cancel: SinkDisposer) {
        self.behavior = behavior
        self.stopsOn = stopsOn
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            do {
                if try !stopsOn(element) {
                    forwardOn(event)
                    return
                }
                if behavior == .inclusive {
                    forwardOn(event)
                }
                forwardOn(.completed)
                dispose()
            } catch {
                forwardOn(.error(error))
                dispose()
            }
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}

/// Both predicate forms: `stopsOn` returns `true` for the element that ends the sequence.
private final class TakeWhile<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let behavior: TakeBehavior
    private let stopsOn: (Element) throws -> Bool

    init(source: Observable<Element>, behavior: TakeBehavior, stopsOn: @escaping (Element) throws -> Bool) {
        self.source = source
        self.behavior = behavior
        self.stopsOn = stopsOn
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = TakeWhileSink(behavior: behavior, stopsOn: stopsOn, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
