// Fusion of `map` and `filter`: a `map` or `filter` applied to a `map`, `filter` or fused stage
// (a `CompactMap`, its `nil` an element a filter dropped) whose element type is its own
// source's becomes one stage over that source, its function the composition of the two. A
// subscription then makes one sink where the chain made one per operator; the elements,
// errors, completion and disposal its observer sees are the same (each function still runs
// once per element, in order; the first thrown error ends the sequence; once a function
// disposes the subscription, the later ones do not run, as a chain's later sinks would drop
// the element). The stage it was built on stays usable by itself.
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
            return CompactMap(source: stage.source, transform: { value, isStopped in
                let mapped = try first(value)
                return isStopped() ? nil : try transform(mapped)
            })
        }
        if type(of: self) == Filter<Element>.self {
            let stage = unsafeDowncast(self, to: Filter<Element>.self)
            let predicate = stage.predicate
            return CompactMap(source: stage.source, transform: { value, isStopped in
                guard try predicate(value), !isStopped() else { return nil }
                return try transform(value)
            })
        }
        if type(of: self) == CompactMap<Element, Element>.self {
            let stage = unsafeDowncast(self, to: CompactMap<Element, Element>.self)
            let step = stage.transform
            return CompactMap(source: stage.source, transform: { value, isStopped in
                guard let mapped = try step(value, isStopped), !isStopped() else { return nil }
                return try transform(mapped)
            })
        }
        return nil
    }

    /// `filter(predicate)` fused into `self` when `self` is a fusable stage, else `nil`.
    @inlinable @inline(__always)
    func fusedFilter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element>? {
        if type(of: self) == Map<Element, Element>.self {
            let stage = unsafeDowncast(self, to: Map<Element, Element>.self)
            let transform = stage.transform
            return CompactMap(source: stage.source, transform: { value, isStopped in
                let mapped = try transform(value)
                guard !isStopped(), try predicate(mapped) else { return nil }
                return mapped
            })
        }
        if type(of: self) == Filter<Element>.self {
            let stage = unsafeDowncast(self, to: Filter<Element>.self)
            let first = stage.predicate
            return CompactMap(source: stage.source, transform: { value, isStopped in
                guard try first(value), !isStopped(), try predicate(value) else { return nil }
                return value
            })
        }
        if type(of: self) == CompactMap<Element, Element>.self {
            let stage = unsafeDowncast(self, to: CompactMap<Element, Element>.self)
            let step = stage.transform
            return CompactMap(source: stage.source, transform: { value, isStopped in
                guard let mapped = try step(value, isStopped), !isStopped(), try predicate(mapped) else { return nil }
                return mapped
            })
        }
        return nil
    }
}
