extension InfallibleType {
    /// Combines the latest element of each `Infallible` of `collection` with `resultSelector`
    /// each time one sends an element, once all have.
    ///
    /// - returns: An `Infallible` of the combined results.
    public static func combineLatest<Collection: Swift.Collection>(_ collection: Collection, resultSelector: @escaping ([Collection.Element.Element]) throws -> Element) -> Infallible<Element> where Collection.Element: InfallibleType {
        Infallible(Observable.combineLatest(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Arrays of the latest element of each `Infallible` of `collection`, each time one sends
    /// an element, once all have.
    ///
    /// - returns: An `Infallible` of arrays, one element per source.
    public static func combineLatest<Collection: Swift.Collection>(_ collection: Collection) -> Infallible<[Element]> where Collection.Element: InfallibleType, Collection.Element.Element == Element {
        Infallible(Observable.combineLatest(collection.map { $0.asObservable() }))
    }
}
