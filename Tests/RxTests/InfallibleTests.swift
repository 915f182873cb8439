import RxSwift
import RxRelay
import RxTest
import XCTest

final class InfallibleTests: RxTestCase {
    func testCreateSendsEventsUntilCompletedAndDisposesOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        var disposals = 0
        let res = scheduler.start {
            Infallible<Int>.create { observer in
                let work = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
                    observer(.next(1))
                    observer(.next(2))
                    observer(.completed)
                    observer(.next(3))
                    return Disposables.create()
                }
                return Disposables.create { work.dispose(); disposals += 1 }
            }.asObservable()
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(210, 2), .completed(210)])
        XCTAssertEqual(disposals, 1)
    }

    func testCreationOperators() {
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Infallible.just(7).asObservable() }.events, [.next(200, 7), .completed(200)])
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler.start { Infallible.of(1, 2, scheduler: scheduler).asObservable() }.events, [.next(201, 1), .next(202, 2), .completed(203)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Infallible.from([4, 5]).asObservable() }.events, [.next(200, 4), .next(200, 5), .completed(200)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Infallible.from(Set([6])).asObservable() }.events, [.next(200, 6), .completed(200)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Infallible<Int>.empty().asObservable() }.events, [.completed(200)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Infallible<Int>.never().asObservable() }.events, [])
    }

    func testTimerAndIntervalOnVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let timer = scheduler.start { Infallible<Int>.timer(.seconds(30), scheduler: scheduler).asObservable() }
        XCTAssertEqual(timer.events, [.next(230, 0), .completed(230)])
        let other = TestScheduler(initialClock: 0)
        let interval = other.start(disposed: 530) { Infallible<Int>.interval(.seconds(100), scheduler: other).asObservable() }
        XCTAssertEqual(interval.events, [.next(300, 0), .next(400, 1), .next(500, 2)])
    }

    func testDeferredCallsFactoryPerSubscription() {
        var calls = 0
        let deferred = Infallible<Int>.deferred {
            calls += 1
            return .just(calls)
        }
        var received: [Int] = []
        _ = deferred.subscribe(onNext: { received.append($0) })
        _ = deferred.subscribe(onNext: { received.append($0) })
        XCTAssertEqual(received, [1, 2])
    }

    func testAsInfallibleOnErrorJustReturn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError), .next(230, 3)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: -1).asObservable() }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, -1), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testAsInfallibleOnErrorFallbackToAndRecover() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let fallback = scheduler.createColdObservable([.next(5, 10), .completed(10)])
        let res = scheduler.start { xs.asInfallible(onErrorFallbackTo: Infallible(fallback.asObservable())).asObservable() }
        XCTAssertEqual(res.events, [.next(210, 1), .next(225, 10), .completed(230)])
        XCTAssertEqual(fallback.subscriptions, [Subscription(220, 230)])

        var recovered: [Error] = []
        let ys = scheduler.createHotObservable([.next(1210, 2), .error(1220, testError2)])
        let res2 = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            ys.asInfallible(onErrorRecover: { error in
                recovered.append(error)
                return .just(99)
            }).asObservable()
        }
        XCTAssertEqual(res2.events, [.next(1210, 2), .next(1220, 99), .completed(1220)])
        XCTAssertEqual(recovered.map { $0 as? TestError }, [testError2])
    }

    func testTransformingOperators() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 2), .next(240, 3), .completed(250)])
        let source = Infallible(xs.asObservable())
        let res = scheduler.start {
            source
                .filter { $0 != 3 }
                .map { $0 * 10 }
                .distinctUntilChanged()
                .scan(0, accumulator: +)
                .startWith(-1)
                .asObservable()
        }
        XCTAssertEqual(res.events, [.next(200, -1), .next(210, 10), .next(220, 30), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])

        let compact = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Infallible.from(["1", "x", "3"]).compactMap { Int($0) }.scan(into: [Int]()) { $0.append($1) }.asObservable()
        }
        XCTAssertEqual(compact.events, [.next(1200, [1]), .next(1200, [1, 3]), .completed(1200)])
    }

    func testDebounceAndThrottle() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(250, 3), .completed(300)])
        let debounced = scheduler.start { Infallible(xs.asObservable()).debounce(.seconds(20), scheduler: scheduler).asObservable() }
        XCTAssertEqual(debounced.events, [.next(235, 2), .next(270, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .next(1215, 2), .next(1218, 3), .next(1250, 4), .completed(1300)])
        let throttled = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Infallible(ys.asObservable()).throttle(.seconds(20), scheduler: scheduler).asObservable()
        }
        XCTAssertEqual(throttled.events, [.next(1210, 1), .next(1230, 3), .next(1250, 4), .completed(1300)])
    }

    func testFlatMapLatestSwitchesAndDisposesInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner1 = scheduler.createColdObservable([.next(10, "a1"), .next(30, "a2")])
        let inner2 = scheduler.createColdObservable([.next(5, "b1"), .completed(20)])
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(260)])
        let res = scheduler.start {
            Infallible(xs.asObservable()).flatMapLatest { $0 == 1 ? inner1 : inner2 }.asObservable()
        }
        XCTAssertEqual(res.events, [.next(220, "a1"), .next(235, "b1"), .completed(260)])
        XCTAssertEqual(inner1.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(inner2.subscriptions, [Subscription(230, 250)])
    }

    func testWithLatestFromAndTakeUntil() {
        let scheduler = TestScheduler(initialClock: 0)
        let taps = scheduler.createHotObservable([.next(205, ()), .next(220, ()), .next(240, ()), .next(260, ())])
        let text = scheduler.createHotObservable([.next(210, "a"), .next(230, "ab")])
        let stop = scheduler.createHotObservable([.next(250, 0)])
        let res = scheduler.start {
            Infallible(taps.asObservable())
                .withLatestFrom(Infallible(text.asObservable()))
                .take(until: stop.asObservable())
                .asObservable()
        }
        XCTAssertEqual(res.events, [.next(220, "a"), .next(240, "ab"), .completed(250)])
        XCTAssertEqual(taps.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(text.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(stop.subscriptions, [Subscription(200, 250)])
    }

    func testSkipWhileAndTakeCount() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 5), .next(230, 2), .next(240, 7), .completed(250)])
        let res = scheduler.start { Infallible(xs.asObservable()).skip(while: { $0 < 3 }).take(2).asObservable() }
        XCTAssertEqual(res.events, [.next(220, 5), .next(230, 2), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testShareReplaySubscribesSourceOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let shared = Infallible(xs.asObservable()).share(replay: 1)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = shared.asObservable().subscribe(first) }
        scheduler.scheduleAt(215) { _ = shared.asObservable().subscribe(second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(second.events, [.next(215, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testWithUnretainedCompletesWhenObjectIsGone() {
        final class Owner { let name = "owner" }
        var owner: Owner? = Owner()
        let relay = PublishRelay<Int>()
        var received: [String] = []
        var completed = false
        let subscription = relay.asInfallible().withUnretained(owner!).subscribe(
            onNext: { object, value in received.append("\(object.name)\(value)") },
            onCompleted: { completed = true }
        )
        relay.accept(1)
        owner = nil
        relay.accept(2)
        XCTAssertEqual(received, ["owner1"])
        XCTAssertTrue(completed)
        subscription.dispose()
    }

    func testCombineLatestAndZipArities() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(300)])
        let b = scheduler.createHotObservable([.next(220, 10), .next(240, 30), .completed(260)])
        let combined = scheduler.start {
            Infallible.combineLatest(Infallible(a.asObservable()), Infallible(b.asObservable())) { $0 + $1 }.asObservable()
        }
        XCTAssertEqual(combined.events, [.next(220, 11), .next(230, 13), .next(240, 33), .completed(300)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 300)])

        let zipped = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Infallible.zip(Infallible.of(1, 2, 3), Infallible.of("a", "b"), Infallible.just(true)).map { "\($0)\($1)\($2)" }.asObservable()
        }
        XCTAssertEqual(zipped.events, [.next(1200, "1atrue"), .completed(1200)])

        let n: [Infallible<Int>] = (1...8).map { Infallible.just($0) }
        let sum: (Int, Int, Int, Int, Int, Int, Int, Int) -> Int = { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
        let eightSources: Infallible<Int> = Infallible.combineLatest(n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7], resultSelector: sum)
        let eight = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) { eightSources.asObservable() }
        XCTAssertEqual(eight.events, [.next(2200, 36), .completed(2200)])

        let collection = scheduler.start(created: 3100, subscribed: 3200, disposed: 4000) {
            Infallible.combineLatest([Infallible.just(1), Infallible.just(2)]).asObservable()
        }
        XCTAssertEqual(collection.events, [.next(3200, [1, 2]), .completed(3200)])
    }

    func testMergeMergesAndConcatConcatenates() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .next(30, 3), .completed(40)])
        let b = scheduler.createColdObservable([.next(20, 2), .completed(25)])
        let merged = scheduler.start { Infallible.merge([Infallible(a.asObservable()), Infallible(b.asObservable())]).asObservable() }
        XCTAssertEqual(merged.events, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let concatenated = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Infallible.concat(Infallible(a.asObservable()), Infallible(b.asObservable())).asObservable()
        }
        XCTAssertEqual(concatenated.events, [.next(1210, 1), .next(1230, 3), .next(1260, 2), .completed(1265)])
    }

    func testSubscribeHandlersAndWithObject() {
        final class Target { var log: [String] = [] }
        let target = Target()
        var log: [String] = []
        _ = Infallible.of(1, 2).subscribe(
            onNext: { log.append("n\($0)") },
            onCompleted: { log.append("c") },
            onDisposed: { log.append("d") }
        )
        XCTAssertEqual(log, ["n1", "n2", "c", "d"])
        _ = Infallible.just(3).subscribe(
            with: target,
            onNext: { $0.log.append("n\($1)") },
            onCompleted: { $0.log.append("c") },
            onDisposed: { $0.log.append("d") }
        )
        XCTAssertEqual(target.log, ["n3", "c", "d"])
    }

    func testBindToRelays() {
        let behavior = BehaviorRelay(value: 0)
        let optional = BehaviorRelay<Int?>(value: nil)
        let publish = PublishRelay<Int>()
        let replay = ReplayRelay<Int>.createUnbound()
        var published: [Int] = []
        let watching = publish.subscribe(onNext: { published.append($0) })
        let subject = PublishSubject<Int>()
        let source = subject.asInfallible(onErrorJustReturn: -1)
        let bindings = [source.bind(to: behavior), source.bind(to: optional), source.bind(to: publish), source.bind(to: replay)]
        subject.onNext(1)
        subject.onError(testError)
        subject.onNext(3)
        XCTAssertEqual(behavior.value, -1)
        XCTAssertEqual(optional.value, -1)
        XCTAssertEqual(published, [1, -1], "the relays get the elements; the completion after the error is dropped")
        var replayed: [Int] = []
        _ = replay.subscribe(onNext: { replayed.append($0) })
        XCTAssertEqual(replayed, [1, -1])
        bindings.forEach { $0.dispose() }
        watching.dispose()
    }

    func testDistinctUntilChangedVariants() {
        struct Person: Equatable { let name: String; let age: Int }
        let people = [Person(name: "a", age: 1), Person(name: "a", age: 2), Person(name: "b", age: 2)]
        var byKey: [Int] = []
        _ = Infallible.from(people).distinctUntilChanged { $0.name }.subscribe(onNext: { byKey.append($0.age) })
        var byComparer: [Int] = []
        _ = Infallible.from(people).distinctUntilChanged { $0.age == $1.age }.subscribe(onNext: { byComparer.append($0.age) })
        var byKeyPath: [String] = []
        _ = Infallible.from(people).distinctUntilChanged(at: \.age).subscribe(onNext: { byKeyPath.append($0.name) })
        var byKeyAndComparer: [String] = []
        _ = Infallible.from(people).distinctUntilChanged({ $0.name }, comparer: { $0 == $1 }).subscribe(onNext: { byKeyAndComparer.append($0.name) })
        XCTAssertEqual(byKey, [1, 2])
        XCTAssertEqual(byComparer, [1, 2])
        XCTAssertEqual(byKeyPath, ["a", "a"])
        XCTAssertEqual(byKeyAndComparer, ["a", "b"])
    }

    func testFlatMapConcatMapAndFlatMapFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(300)])
        let inner = { (value: Int) in
            scheduler.createColdObservable([.next(10, value * 10), .next(20, value * 100), .completed(20)])
        }
        let merged = scheduler.start { Infallible(xs.asObservable()).flatMap(inner).asObservable() }
        XCTAssertEqual(merged.events, [.next(220, 10), .next(225, 20), .next(230, 100), .next(235, 200), .completed(300)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .next(215, 2), .completed(300)])
        let innerOther = { (value: Int) in
            other.createColdObservable([.next(10, value * 10), .completed(20)])
        }
        let concatenated = other.start { Infallible(ys.asObservable()).concatMap(innerOther).asObservable() }
        XCTAssertEqual(concatenated.events, [.next(220, 10), .next(240, 20), .completed(300)])

        let third = TestScheduler(initialClock: 0)
        let zs = third.createHotObservable([.next(210, 1), .next(215, 2), .next(240, 3), .completed(300)])
        let innerThird = { (value: Int) in
            third.createColdObservable([.next(10, value * 10), .completed(20)])
        }
        let first = third.start { Infallible(zs.asObservable()).flatMapFirst(innerThird).asObservable() }
        XCTAssertEqual(first.events, [.next(220, 10), .next(250, 30), .completed(300)])
    }

    func testTakeAndSkipVariantsAndDo() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
        var log: [String] = []
        let whileRes = scheduler.start {
            Infallible(xs.asObservable())
                .do(onNext: { log.append("n\($0)") }, onCompleted: { log.append("c") }, onDispose: { log.append("d") })
                .take(while: { $0 < 3 }, behavior: .inclusive)
                .asObservable()
        }
        XCTAssertEqual(whileRes.events, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(230)])
        XCTAssertEqual(log, ["n1", "n2", "n3", "d"])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
        let trigger = other.createHotObservable([.next(215, "go")])
        let res = other.start {
            Infallible(ys.asObservable())
                .skip(until: trigger.asObservable())
                .take(until: { $0 == 4 })
                .take(for: .seconds(100), scheduler: other)
                .asObservable()
        }
        XCTAssertEqual(res.events, [.next(220, 2), .next(230, 3), .completed(240)])
        XCTAssertEqual(trigger.subscriptions, [Subscription(200, 215)])
    }

    func testTupleCombineLatestAndZip() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(240)])
        let b = scheduler.createHotObservable([.next(220, "x"), .completed(250)])
        let res = scheduler.start {
            Infallible.combineLatest(Infallible(a.asObservable()), Infallible(b.asObservable())).map { "\($0)\($1)" }.asObservable()
        }
        XCTAssertEqual(res.events, [.next(220, "1x"), .next(230, "2x"), .completed(250)])
        var zipped: [String] = []
        _ = Infallible.zip(Infallible.of(1, 2), Infallible.of("a", "b")).subscribe(onNext: { zipped.append("\($0)\($1)") })
        XCTAssertEqual(zipped, ["1a", "2b"])
    }
}
