import RxSwift

extension ObservableType {
    /// Sends every element to each of `relays`. Errors stop debug builds (relays never
    /// terminate); completion is ignored.
    ///
    /// - returns: The subscription.
    public func bind(to relays: PublishRelay<Element>...) -> Disposable {
        bind(to: relays)
    }

    /// Sends every element, wrapped in an optional, to each of `relays`.
    ///
    /// - returns: The subscription.
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable {
        map { $0 as Element? }.bind(to: relays)
    }

    private func bind(to relays: [PublishRelay<Element>]) -> Disposable {
        relayBinding { element in relays.forEach { $0.accept(element) } }
    }

    /// Sends every element to each of `relays`.
    ///
    /// - returns: The subscription.
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
        bind(to: relays)
    }

    /// Sends every element, wrapped in an optional, to each of `relays`.
    ///
    /// - returns: The subscription.
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable {
        map { $0 as Element? }.bind(to: relays)
    }

    private func bind(to relays: [BehaviorRelay<Element>]) -> Disposable {
        relayBinding { element in relays.forEach { $0.accept(element) } }
    }

    /// Sends every element to each of `relays`.
    ///
    /// - returns: The subscription.
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
        bind(to: relays)
    }

    /// Sends every element, wrapped in an optional, to each of `relays`.
    ///
    /// - returns: The subscription.
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable {
        map { $0 as Element? }.bind(to: relays)
    }

    private func bind(to relays: [ReplayRelay<Element>]) -> Disposable {
        relayBinding { element in relays.forEach { $0.accept(element) } }
    }

    private func relayBinding(_ accept: @escaping (Element) -> Void) -> Disposable {
        subscribe { event in
            switch event {
            case .next(let element):
                accept(element)
            case .error(let error):
                #if DEBUG
                fatalError("Binding error to relay: \(error)")
                #else
                print("Binding error to relay: \(error)")
                #endif
            case .completed:
                break
            }
        }
    }
}
