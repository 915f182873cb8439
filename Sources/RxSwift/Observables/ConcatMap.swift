extension ObservableType {
    /// Maps each element to an inner sequence with `selector` and sends the inner sequences'
    /// elements one inner sequence after another, in the order of the elements (each waits
    /// for the previous one to complete). Fails with the first error.
    ///
    /// - parameter selector: Maps an element to its inner sequence.
    /// - returns: The concatenated elements of the inner sequences.
    public func concatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        Merge(source: asObservable(), maxConcurrent: 1, selector: selector)
    }
}
