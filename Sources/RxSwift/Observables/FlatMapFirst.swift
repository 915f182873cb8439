extension ObservableType {
    /// Maps an element to an inner sequence with `selector` only while no inner sequence is
    /// running; elements arriving meanwhile are dropped. Completes when `self` and the running
    /// inner sequence completed; fails with the first error.
    ///
    /// - parameter selector: Maps an element to its inner sequence.
    /// - returns: The elements of the inner sequences, one inner sequence at a time.
    public func flatMapFirst<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        Merge(source: asObservable(), skipWhileActive: true, selector: selector)
    }
}
