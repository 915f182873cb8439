import RxSwift

// In RxCocoa, as in RxSwift 6: Infallible is in Rx, its bindings to observers here.
extension InfallibleType {
    /// Sends every event of the sequence to each of `observers`.
    ///
    /// - returns: The subscription.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        subscribe { event in
            for observer in observers { observer.on(event) }
        }
    }

    /// Sends every event of the sequence, elements wrapped in an optional, to each of `observers`.
    ///
    /// - returns: The subscription.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        asObservable().map { $0 as Element? }.subscribe { event in
            for observer in observers { observer.on(event) }
        }
    }

    /// Calls `binder` with `self` and returns its result.
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// Calls `binder` with `self` and `curriedArgument`.
    public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        binder(self)(curriedArgument)
    }

    /// Subscribes `onNext` to the elements with `object`, held weakly; elements after
    /// `object` is deallocated are ignored.
    ///
    /// - returns: The subscription.
    public func bind<Object: AnyObject>(with object: Object, onNext: @escaping (Object, Element) -> Void) -> Disposable {
        subscribe(with: object, onNext: onNext)
    }

    /// Subscribes `onNext` to the elements.
    ///
    /// - returns: The subscription.
    public func bind(onNext: @escaping (Element) -> Void) -> Disposable {
        subscribe(onNext: onNext)
    }
}
