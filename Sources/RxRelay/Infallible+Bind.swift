import RxSwift

extension InfallibleType {
    /// Sends every element to each of `relays`; completion is ignored (relays never end).
    ///
    /// - returns: The subscription.
    public func bind(to relays: PublishRelay<Element>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element, wrapped in an optional, to each of `relays`.
    ///
    /// - returns: The subscription.
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to each of `relays`; completion is ignored (relays never end).
    ///
    /// - returns: The subscription.
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element, wrapped in an optional, to each of `relays`.
    ///
    /// - returns: The subscription.
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to each of `relays`; completion is ignored (relays never end).
    ///
    /// - returns: The subscription.
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element, wrapped in an optional, to each of `relays`.
    ///
    /// - returns: The subscription.
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }
}
