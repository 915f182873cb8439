import RxSwift

extension BehaviorRelay {
    /// The relay as an `Infallible`: its current value, then every value accepted.
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}

extension PublishRelay {
    /// The relay as an `Infallible`: every value accepted from now on.
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}

extension ReplayRelay {
    /// The relay as an `Infallible`: its buffered values, then every value accepted.
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}
