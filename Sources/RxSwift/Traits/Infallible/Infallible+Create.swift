/// An event an `Infallible` can send: an element, or completion.
public enum InfallibleEvent<Element> {
    /// The next element.
    case next(Element)
    /// The sequence ended normally.
    case completed
}

extension InfallibleEvent: EventConvertible {
    /// The same event as an `Event`.
    public var event: Event<Element> {
        switch self {
        case .next(let element): return .next(element)
        case .completed: return .completed
        }
    }
}

extension Infallible {
    /// Receives the events of an `Infallible` made with `create`.
    public typealias InfallibleObserver = (InfallibleEvent<Element>) -> Void

    /// An `Infallible` from a subscribe function: `subscribe` runs for each subscriber with a
    /// callback to send events to, and returns the disposable that cancels the work it started.
    /// Events after `.completed` are ignored.
    ///
    /// - parameter subscribe: The subscribe function.
    /// - returns: The `Infallible`.
    public static func create(subscribe: @escaping (@escaping InfallibleObserver) -> Disposable) -> Infallible<Element> {
        let source = Observable<Element>.create { observer in
            subscribe { event in
                observer.on(event.event)
            }
        }
        return Infallible(source)
    }
}
