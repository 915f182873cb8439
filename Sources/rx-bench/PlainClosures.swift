/// The benchmark's workloads written as a competent engineer would with plain Swift
/// closures: a subject is an array of handlers; an observable is a function that pushes
/// values into a handler.
///
/// The combinators are `@inline(never)`: like the Rx chains, the closure pipelines are
/// values composed at run time. Without it the optimizer sees through the whole pipeline
/// and deletes it (the plain map/filter chain then measures 0 ms), which says nothing about
/// the cost of closures.

/// An array of handlers.
final class PlainSubject<Value> {
    private var handlers: [(id: Int, handler: (Value) -> Void)] = []
    private var nextId = 0

    func subscribe(_ handler: @escaping (Value) -> Void) -> Int {
        let id = nextId
        nextId += 1
        handlers.append((id, handler))
        return id
    }

    func unsubscribe(_ id: Int) {
        handlers.removeAll { $0.id == id }
    }

    func send(_ value: Value) {
        for entry in handlers {
            entry.handler(value)
        }
    }
}

/// A push-style sequence: call it with a handler to receive its values.
typealias PlainObservable<Value> = (@escaping (Value) -> Void) -> Void

enum Plain {
    @inline(never)
    static func pump(_ count: Int) -> PlainObservable<Int> {
        { handler in
            for _ in 0..<count { handler(1) }
        }
    }

    @inline(never)
    static func just<Value>(_ value: Value) -> PlainObservable<Value> {
        { handler in handler(value) }
    }

    @inline(never)
    static func map<Value, Result>(_ source: @escaping PlainObservable<Value>, _ transform: @escaping (Value) -> Result) -> PlainObservable<Result> {
        { handler in source { handler(transform($0)) } }
    }

    @inline(never)
    static func filter<Value>(_ source: @escaping PlainObservable<Value>, _ predicate: @escaping (Value) -> Bool) -> PlainObservable<Value> {
        { handler in source { if predicate($0) { handler($0) } } }
    }

    @inline(never)
    static func flatMap<Value, Result>(_ source: @escaping PlainObservable<Value>, _ selector: @escaping (Value) -> PlainObservable<Result>) -> PlainObservable<Result> {
        { handler in
            source { value in
                let inner = selector(value)
                inner(handler)
            }
        }
    }

    /// Only the latest inner sequence may deliver.
    @inline(never)
    static func flatMapLatest<Value, Result>(_ source: @escaping PlainObservable<Value>, _ selector: @escaping (Value) -> PlainObservable<Result>) -> PlainObservable<Result> {
        { handler in
            var latest = 0
            source { value in
                latest += 1
                let id = latest
                let inner = selector(value)
                inner { result in
                    if id == latest { handler(result) }
                }
            }
        }
    }

    /// Emits `combine` of the latest values once all four sources have one.
    @inline(never)
    static func combineLatest<A, B, C, D, Result>(_ a: @escaping PlainObservable<A>, _ b: @escaping PlainObservable<B>, _ c: @escaping PlainObservable<C>, _ d: @escaping PlainObservable<D>, _ combine: @escaping (A, B, C, D) -> Result) -> PlainObservable<Result> {
        { handler in
            var lastA: A?, lastB: B?, lastC: C?, lastD: D?
            func emit() {
                if let lastA, let lastB, let lastC, let lastD {
                    handler(combine(lastA, lastB, lastC, lastD))
                }
            }
            a { lastA = $0; emit() }
            b { lastB = $0; emit() }
            c { lastC = $0; emit() }
            d { lastD = $0; emit() }
        }
    }
}

enum PlainWorkloads {
    /// Runs `chain` once over `count` elements and sums what comes out.
    @inline(__always)
    static func pumping(_ count: Int, through chain: (@escaping PlainObservable<Int>) -> PlainObservable<Int>) -> Int {
        var sum = 0
        let run = chain(Plain.pump(count))
        run { sum += $0 }
        return sum
    }

    /// Builds and runs `chain` over one element, `count` times.
    @inline(__always)
    static func creating(_ count: Int, through chain: (@escaping PlainObservable<Int>) -> PlainObservable<Int>) -> Int {
        var sum = 0
        for _ in 0..<count {
            let run = chain(Plain.pump(1))
            run { sum += $0 }
        }
        return sum
    }

    @inline(never)
    static func subjectPumping(_ count: Int) -> Int {
        var sum = 0
        let subject = PlainSubject<Int>()
        let id = subject.subscribe { sum += $0 }
        for _ in 0..<count { subject.send(1) }
        subject.unsubscribe(id)
        return sum
    }

    @inline(never)
    static func subjectPumpingTwoSubscriptions(_ count: Int) -> Int {
        var sum = 0
        let subject = PlainSubject<Int>()
        let id1 = subject.subscribe { sum += $0 }
        let id2 = subject.subscribe { sum += $0 }
        for _ in 0..<count { subject.send(1) }
        subject.unsubscribe(id1)
        subject.unsubscribe(id2)
        return sum
    }

    @inline(never)
    static func subjectCreating(_ count: Int) -> Int {
        var sum = 0
        for _ in 0..<count {
            let subject = PlainSubject<Int>()
            let id = subject.subscribe { sum += $0 }
            subject.send(1)
            subject.unsubscribe(id)
        }
        return sum
    }

    @inline(never)
    static func mapFilterChain(_ source: @escaping PlainObservable<Int>) -> PlainObservable<Int> {
        var chain = source
        for _ in 0..<6 {
            chain = Plain.filter(Plain.map(chain) { $0 }) { _ in true }
        }
        return chain
    }

    @inline(never)
    static func mapFilterPumping(_ count: Int) -> Int { pumping(count, through: mapFilterChain) }

    @inline(never)
    static func mapFilterCreating(_ count: Int) -> Int { creating(count, through: mapFilterChain) }

    @inline(never)
    static func flatMapChain(_ source: @escaping PlainObservable<Int>) -> PlainObservable<Int> {
        var chain = source
        for _ in 0..<5 {
            chain = Plain.flatMap(chain) { Plain.just($0) }
        }
        return chain
    }

    @inline(never)
    static func flatMapPumping(_ count: Int) -> Int { pumping(count, through: flatMapChain) }

    @inline(never)
    static func flatMapCreating(_ count: Int) -> Int { creating(count, through: flatMapChain) }

    @inline(never)
    static func flatMapLatestChain(_ source: @escaping PlainObservable<Int>) -> PlainObservable<Int> {
        var chain = source
        for _ in 0..<5 {
            chain = Plain.flatMapLatest(chain) { Plain.just($0) }
        }
        return chain
    }

    @inline(never)
    static func flatMapLatestPumping(_ count: Int) -> Int { pumping(count, through: flatMapLatestChain) }

    @inline(never)
    static func flatMapLatestCreating(_ count: Int) -> Int { creating(count, through: flatMapLatestChain) }

    @inline(never)
    static func combineLatestChain(_ source: @escaping PlainObservable<Int>) -> PlainObservable<Int> {
        var last = Plain.combineLatest(Plain.just(1), Plain.just(1), Plain.just(1), source) { x, _, _, _ in x }
        for _ in 0..<6 {
            last = Plain.combineLatest(Plain.just(1), Plain.just(1), Plain.just(1), last) { x, _, _, _ in x }
        }
        return last
    }

    @inline(never)
    static func combineLatestPumping(_ count: Int) -> Int { pumping(count, through: combineLatestChain) }

    @inline(never)
    static func combineLatestCreating(_ count: Int) -> Int { creating(count, through: combineLatestChain) }
}
