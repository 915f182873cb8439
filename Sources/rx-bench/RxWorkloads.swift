import Rx

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

    static func mapFilterPumping(_ count: Int) -> Int {
        var sum = 0
        let subscription = mapFilterChain(pump(count)).subscribe(onNext: { x in sum += x })
        subscription.dispose()
        return sum
    }

    static func mapFilterCreating(_ count: Int) -> Int {
        var sum = 0
        for _ in 0..<count {
            let subscription = mapFilterChain(pump(1)).subscribe(onNext: { x in sum += x })
            subscription.dispose()
        }
        return sum
    }

    static func flatMapChain(_ source: Observable<Int>) -> Observable<Int> {
        source
            .flatMap { x in Observable.just(x) }
            .flatMap { x in Observable.just(x) }
            .flatMap { x in Observable.just(x) }
            .flatMap { x in Observable.just(x) }
            .flatMap { x in Observable.just(x) }
    }

    static func flatMapPumping(_ count: Int) -> Int {
        var sum = 0
        let subscription = flatMapChain(pump(count)).subscribe(onNext: { x in sum += x })
        subscription.dispose()
        return sum
    }

    static func flatMapCreating(_ count: Int) -> Int {
        var sum = 0
        for _ in 0..<count {
            let subscription = flatMapChain(pump(1)).subscribe(onNext: { x in sum += x })
            subscription.dispose()
        }
        return sum
    }

    static func flatMapLatestChain(_ source: Observable<Int>) -> Observable<Int> {
        source
            .flatMapLatest { x in Observable.just(x) }
            .flatMapLatest { x in Observable.just(x) }
            .flatMapLatest { x in Observable.just(x) }
            .flatMapLatest { x in Observable.just(x) }
            .flatMapLatest { x in Observable.just(x) }
    }

    static func flatMapLatestPumping(_ count: Int) -> Int {
        var sum = 0
        let subscription = flatMapLatestChain(pump(count)).subscribe(onNext: { x in sum += x })
        subscription.dispose()
        return sum
    }

    static func flatMapLatestCreating(_ count: Int) -> Int {
        var sum = 0
        for _ in 0..<count {
            let subscription = flatMapLatestChain(pump(1)).subscribe(onNext: { x in sum += x })
            subscription.dispose()
        }
        return sum
    }

    static func combineLatestChain(_ source: Observable<Int>) -> Observable<Int> {
        var last = Observable.combineLatest(
            Observable.just(1), Observable.just(1), Observable.just(1), source
        ) { x, _, _, _ in x }
        for _ in 0..<6 {
            last = Observable.combineLatest(Observable.just(1), Observable.just(1), Observable.just(1), last) { x, _, _, _ in x }
        }
        return last
    }

    static func combineLatestPumping(_ count: Int) -> Int {
        var sum = 0
        let subscription = combineLatestChain(pump(count)).subscribe(onNext: { x in sum += x })
        subscription.dispose()
        return sum
    }

    static func combineLatestCreating(_ count: Int) -> Int {
        var sum = 0
        for _ in 0..<count {
            let subscription = combineLatestChain(pump(1)).subscribe(onNext: { x in sum += x })
            subscription.dispose()
        }
        return sum
    }
}
