extension ObservableConvertibleType {
    /// The sequence as an `Infallible`: an error is replaced by `element`, then completion.
    ///
    /// - returns: The `Infallible`.
    public func asInfallible(onErrorJustReturn element: Element) -> Infallible<Element> {
        Infallible(asObservable().catchAndReturn(element))
    }

    /// The sequence as an `Infallible`: after an error it continues with `infallible`.
    ///
    /// - returns: The `Infallible`.
    public func asInfallible(onErrorFallbackTo infallible: Infallible<Element>) -> Infallible<Element> {
        Infallible(asObservable().catch { _ in infallible.asObservable() })
    }

    /// The sequence as an `Infallible`: after an error it continues with the `Infallible`
    /// that `onErrorRecover` makes from the error.
    ///
    /// - returns: The `Infallible`.
    public func asInfallible(onErrorRecover: @escaping (Swift.Error) -> Infallible<Element>) -> Infallible<Element> {
        Infallible(asObservable().catch { onErrorRecover($0).asObservable() })
    }
}
