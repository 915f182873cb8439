/// What a combining sink (combineLatest, withLatestFrom) keeps a source's latest element in:
/// `Optional`, given to the sink as a generic parameter of its own rather than spelled
/// `Element?` in its fields. The sink's deinit is never specialised; it destroys a field of a
/// parameter's type with the metadata the sink's type carries, where an `Element?` field made
/// it look up `Optional<Element>`'s metadata, about 325 instructions for each source at each
/// sink's end.
@usableFromInline
protocol LatestElementSlot: ExpressibleByNilLiteral {
    associatedtype Wrapped
    init(_ some: Wrapped)
    var unsafelyUnwrapped: Wrapped { get }
    /// The element, if there is one.
    var element: Wrapped? { get }
}

extension Optional: LatestElementSlot {
    @inlinable
    var element: Wrapped? { self }
}
