// Fusion of `map` and `filter`: a `map` or `filter` applied to a `map`, `filter` or fused stage
// (a `CompactMap`, its `nil` an element a filter dropped) whose element type is its own
// source's becomes one stage over that source, its function the composition of the two. A
// subscription then makes one sink where the chain made one per operator; the elements,
// errors, completion and disposal its observer sees are the same (each function still runs
// once per element, in order; the first thrown error ends the sequence). The stage it was
// built on stays usable by itself.
//
// Only stages whose input and output types are equal fuse: the client code that composes
// knows its own element types, not the earlier stage's source type, so the check is an
// exact class comparison in specialised code (a `map` that changes the type starts anew).

extension Observable {
    /// `map(transform)` fused into `self` when `self` is a fusable stage, else `nil`.
    @inlinable @inline(__always)
    func fusedMap<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result>? {
        if type(of: self) == Map<Element, Element>.self {
            let stage = unsafeDowncast(self, to: Map<Element, Element>.self)
            let first = stage.transform
            return Map(source: stage.source, transform: { try transform(first($0)) })
        }
        if type(of: self) == Filter<Element>.self {
            let stage = unsafeDowncast(self, to: Filter<Element>.self)
            let predicate = stage.predicate
            return CompactMap(source: stage.source, transform: { try predicate($0) ? transform($0) : nil })
        }
        if type(of: self) == CompactMap<Element, Element>.self {
            let stage = unsafeDowncast(self, to: CompactMap<Element, Element>.self)
            let step = stage.transform
            return CompactMap(source: stage.source, transform: { try step($0).map(transform) })
        }
        return nil
    }

    /// `filter(predicate)` fused into `self` when `self` is a fusable stage, else `nil`.
    @inlinable @inline(__always)
    func fusedFilter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element>? {
        if type(of: self) == Map<Element, Element>.self {
            let stage = unsafeDowncast(self, to: Map<Element, Element>.self)
            let transform = stage.transform
            return CompactMap(source: stage.source, transform: { value in
                let mapped = try transform(value)
                return try predicate(mapped) ? mapped : nil
            })
        }
        if type(of: self) == Filter<Element>.self {
            let stage = unsafeDowncast(self, to: Filter<Element>.self)
            let first = stage.predicate
            return Filter(source: stage.source, predicate: { try first($0) && predicate($0) })
        }
        if type(of: self) == CompactMap<Element, Element>.self {
            let stage = unsafeDowncast(self, to: CompactMap<Element, Element>.self)
            let step = stage.transform
            return CompactMap(source: stage.source, transform: { value in
                guard let mapped = try step(value), try predicate(mapped) else { return nil }
                return mapped
            })
        }
        return nil
    }
}
