import RxSwift

/// RxSwift's benchmark workloads (Tests/Benchmarks), written against this library.
enum RxWorkloads {
    static func pump(_ count: Int) -> Observable<Int> {
        Observable<Int>.create { observer in
            for _ in 0..<count {
                observer.on(.next(1))
            }
            return Disposables.create()
        }
    }

    /// Subscribes once to `chain` over `count` elements and sums what comes out.
    @inline(__always)
    static func pumping(_ count: Int, through chain: (Observable<Int>) -> Observable<Int>) -> Int {
        var sum = 0
        let subscription = chain(pump(count)).subscribe(onNext: { x in sum += x })
        subscription.dispose()
        return sum
    }

    /// Builds, subscribes to and disposes `chain` over one element, `count` times.
    @inline(__always)
    static func creating(_ count: Int, through chain: (Observable<Int>) -> Observable<Int>) -> Int {
        var sum = 0
        for _ in 0..<count {
            let subscription = chain(pump(1)).subscribe(onNext: { x in sum += x })
            subscription.dispose()
        }
        return sum
    }

    static func subjectPumping(_ count: Int) -> Int {
        var sum = 0
        let subject = PublishSubject<Int>()
        let subscription = subject.subscribe(onNext: { x in sum += x })
        for _ in 0..<count {
            subject.on(.next(1))
        }
        subscription.dispose()
        return sum
    }

    static func subjectPumpingTwoSubscriptions(_ count: Int) -> Int {
        var sum = 0
        let subject = PublishSubject<Int>()
        let subscription1 = subject.subscribe(onNext: { x in sum += x })
        let subscription2 = subject.subscribe(onNext: { x in sum += x })
        for _ in 0..<count {
            subject.on(.next(1))
        }
        subscription1.dispose()
        subscription2.dispose()
        return sum
    }

    static func subjectCreating(_ count: Int) -> Int {
        var sum = 0
        for _ in 0..<count {
            let subject = PublishSubject<Int>()
            let subscription = subject.subscribe(onNext: { x in sum += x })
            subject.on(.next(1))
            subscription.dispose()
        }
        return sum
    }

    static func mapFilterChain(_ source: Observable<Int>) -> Observable<Int> {
        source
            .map { $0 }.filter { _ in true }
            .map { $0 }.filter { _ in true }
            .map { $0 }.filter { _ in true }
            .map { $0 }.filter { _ in true }
            .map { $0 }.filter { _ in true }
            .map { $0 }.filter { _ in true }
    }

    static func mapFilterPumping(_ count: Int) -> Int { pumping(count, through: mapFilterChain) }

    static func mapFilterCreating(_ count: Int) -> Int { creating(count, through: mapFilterChain) }

    static func flatMapChain(_ source: Observable<Int>) -> Observable<Int> {
        source
            .flatMap { x in Observable.just(x) }
            .flatMap { x in Observable.just(x) }
            .flatMap { x in Observable.just(x) }
            .flatMap { x in Observable.just(x) }
            .flatMap { x in Observable.just(x) }
    }

    static func flatMapPumping(_ count: Int) -> Int { pumping(count, through: flatMapChain) }

    static func flatMapCreating(_ count: Int) -> Int { creating(count, through: flatMapChain) }

    static func flatMapLatestChain(_ source: Observable<Int>) -> Observable<Int> {
        source
            .flatMapLatest { x in Observable.just(x) }
            .flatMapLatest { x in Observable.just(x) }
            .flatMapLatest { x in Observable.just(x) }
            .flatMapLatest { x in Observable.just(x) }
            .flatMapLatest { x in Observable.just(x) }
    }

    static func flatMapLatestPumping(_ count: Int) -> Int { pumping(count, through: flatMapLatestChain) }

    static func flatMapLatestCreating(_ count: Int) -> Int { creating(count, through: flatMapLatestChain) }

    static func combineLatestChain(_ source: Observable<Int>) -> Observable<Int> {
        var last = Observable.combineLatest(
            Observable.just(1), Observable.just(1), Observable.just(1), source
        ) { x, _, _, _ in x }
        for _ in 0..<6 {
            last = Observable.combineLatest(Observable.just(1), Observable.just(1), Observable.just(1), last) { x, _, _, _ in x }
        }
        return last
    }

    static func combineLatestPumping(_ count: Int) -> Int { pumping(count, through: combineLatestChain) }

    static func combineLatestCreating(_ count: Int) -> Int { creating(count, through: combineLatestChain) }

    /// An inner sequence that is not `just` (so flatMap takes its general path) doing the
    /// same work: one element, then completion.
    static func single(_ value: Int) -> Observable<Int> {
        Observable.create { observer in
            observer.on(.next(value))
            observer.on(.completed)
            return Disposables.create()
        }
    }

    static func flatMapGeneralPumping(_ count: Int) -> Int {
        var sum = 0
        let subscription = pump(count)
            .flatMap { x in single(x) }
            .flatMap { x in single(x) }
            .flatMap { x in single(x) }
            .flatMap { x in single(x) }
            .flatMap { x in single(x) }
            .subscribe(onNext: { x in sum += x })
        subscription.dispose()
        return sum
    }

    static func flatMapLatestGeneralPumping(_ count: Int) -> Int {
        var sum = 0
        let subscription = pump(count)
            .flatMapLatest { x in single(x) }
            .flatMapLatest { x in single(x) }
            .flatMapLatest { x in single(x) }
            .flatMapLatest { x in single(x) }
            .flatMapLatest { x in single(x) }
            .subscribe(onNext: { x in sum += x })
        subscription.dispose()
        return sum
    }
}
