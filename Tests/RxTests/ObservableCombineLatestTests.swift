import RxSwift
import RxTest
import XCTest

final class ObservableCombineLatestTests: RxTestCase {
    func testCombineLatestTwoWaitsForBothThenCombinesLatest() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([
            .next(150, 1),
            .next(215, 2),
            .next(225, 4),
            .completed(230),
        ])
        let e1 = scheduler.createHotObservable([
            .next(150, 1),
            .next(220, 3),
            .next(240, 5),
            .completed(250),
        ])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 * 10 + $1 } }
        XCTAssertEqual(res.events, [
            .next(220, 23),
            .next(225, 43),
            .next(240, 45),
            .completed(250),
        ])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 250)])
    }

    /// `PublishSubject` sources are subscribed by the sink itself (`subscribeObject`): they
    /// are followed while subscribed and let go at disposal.
    func testCombineLatestOfPublishSubjectsFollowsThemAndLetsThemGo() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        scheduler.scheduleAt(190) { a.onNext(9) }
        scheduler.scheduleAt(210) { a.onNext(1) }
        scheduler.scheduleAt(220) { b.onNext(2) }
        scheduler.scheduleAt(230) { a.onNext(3) }
        var followedAt240 = false
        scheduler.scheduleAt(240) { followedAt240 = a.hasObservers && b.hasObservers }
        scheduler.scheduleAt(260) { b.onNext(4) }
        let res = scheduler.start(disposed: 250) { Observable.combineLatest(a, b) { $0 * 10 + $1 } }
        XCTAssertEqual(res.events, [.next(220, 12), .next(230, 32)])
        XCTAssertTrue(followedAt240)
        XCTAssertFalse(a.hasObservers)
        XCTAssertFalse(b.hasObservers)
    }

    /// A subject that already ended, subscribed as a source, ends the sequence as it ended:
    /// with its error, with `RxError.disposed` once disposed, or, when every source had
    /// completed, with completion.
    func testCombineLatestOfSubjectsThatAlreadyEnded() {
        let scheduler = TestScheduler(initialClock: 0)
        let live = PublishSubject<Int>()
        let failed = PublishSubject<Int>()
        failed.onError(testError)
        let res = scheduler.start { Observable.combineLatest(live, failed) { $0 + $1 } }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertFalse(live.hasObservers)

        let disposed = PublishSubject<Int>()
        disposed.dispose()
        var error: Error?
        _ = Observable.combineLatest(live, disposed) { $0 + $1 }.subscribe(onError: { error = $0 })
        guard case .disposed? = error as? RxError else { return XCTFail("\(String(describing: error))") }
        XCTAssertFalse(live.hasObservers)

        let completed1 = PublishSubject<Int>()
        let completed2 = PublishSubject<Int>()
        completed1.onCompleted()
        completed2.onCompleted()
        let ended = TestScheduler(initialClock: 0).start { Observable.combineLatest(completed1, completed2) { $0 + $1 } }
        XCTAssertEqual(ended.events, [.completed(200)])
    }

    func testCombineLatestTupleForm() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        let e1 = scheduler.createHotObservable([.next(220, "a"), .next(240, "b")])
        let res = scheduler.start { Observable.combineLatest(e0, e1).map { "\($0.0)\($0.1)" } }
        XCTAssertEqual(res.events, [.next(220, "1a"), .next(230, "2a"), .next(240, "2b")])
    }

    func testCombineLatestErrorFromEitherEndsAndDisposesBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let e1 = scheduler.createHotObservable([.next(220, 2), .next(240, 3)])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(220, 3), .error(230, testError)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 230)])
    }

    func testCombineLatestSourceEmptyThenOtherElementCompletes() {
        // As in RxSwift: a source that completes with no element ends the sequence when
        // another source next sends an element.
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([Recorded<Event<Int>>.completed(210)])
        let e1 = scheduler.createHotObservable([.next(220, 2), .next(230, 3)])
        let res = scheduler.start { Observable.combineLatest(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [.completed(220)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 220)])
    }

    func testCombineLatestSourceFailingWhileSubscribingDisposesTheLaterSourcesAtOnce() {
        // The first source fails during its own subscription: the sink is disposed before the
        // others are subscribed, so each of their subscriptions ends as soon as it is set.
        let scheduler = TestScheduler(initialClock: 0)
        let e1 = scheduler.createHotObservable([.next(210, 1)])
        let e2 = scheduler.createHotObservable([.next(220, 2)])
        let res = scheduler.start { Observable.combineLatest(Observable<Int>.error(testError), e1, e2) { $0 + $1 + $2 } }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 200)])
        XCTAssertEqual(e2.subscriptions, [Subscription(200, 200)])
    }

    func testCombineLatestMiddleSourceFailingWhileSubscribingDisposesBothOthers() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1)])
        let subject = PublishSubject<Int>()
        let res = scheduler.start { Observable.combineLatest(e0, Observable<Int>.error(testError), subject) { $0 + $1 + $2 } }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 200)])
        XCTAssertFalse(subject.hasObservers)
    }

    func testCombineLatestSelectorErrorEnds() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        let e1 = scheduler.createHotObservable([.next(220, 1)])
        let res = scheduler.start {
            Observable.combineLatest(e0, e1) { a, b -> Int in
                if a == 2 { throw testError }
                return a + b
            }
        }
        XCTAssertEqual(res.events, [.next(220, 2), .error(230, testError)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 230)])
    }

    func testCombineLatestDisposedMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .next(300, 2)])
        let e1 = scheduler.createHotObservable([.next(220, 1), .next(310, 2)])
        let res = scheduler.start(disposed: 250) { Observable.combineLatest(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(220, 2)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 250)])
    }

    func testCombineLatestThreeSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .completed(400)])
        let b = scheduler.createHotObservable([.next(220, 10), .next(260, 20), .completed(410)])
        let c = scheduler.createHotObservable([.next(230, 100), .completed(420)])
        let res = scheduler.start { Observable.combineLatest(a, b, c) { $0 + $1 + $2 } }
        XCTAssertEqual(res.events, [.next(230, 111), .next(260, 121), .completed(420)])
    }

    /// The sink keeps which sources sent, which completed and whether it ended in one integer
    /// of 8, 16 or 32 bits by arity (3, 7 and 8 sources are the largest of each): each arity
    /// completes when the last source completes, and at the element of the one source still
    /// running once the others completed and one of them never sent.
    func testCombineLatestCompletionAtEveryFlagWidth() {
        func combine(_ s: [TestableObservable<Int>]) -> Observable<Int> {
            switch s.count {
            case 3: return Observable.combineLatest(s[0], s[1], s[2]) { $0 + $1 + $2 }
            case 7: return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 }
            default: return Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
            }
        }
        for n in [3, 7, 8] {
            // Every source sends, then they complete one after another.
            let scheduler = TestScheduler(initialClock: 0)
            let sources = (0..<n).map { i in
                scheduler.createHotObservable([.next(210 + i, 1), .next(250, 1), .completed(300 + 10 * i)])
            }
            let res = scheduler.start { combine(sources) }
            XCTAssertEqual(res.events, [.next(210 + n - 1, n)] + Array(repeating: .next(250, n), count: n) + [.completed(300 + 10 * (n - 1))], "\(n) sources")
            for (i, source) in sources.enumerated() {
                XCTAssertEqual(source.subscriptions, [Subscription(200, 300 + 10 * i)], "\(n) sources, source \(i)")
            }

            // Source 0 completes empty, the middle ones send and complete: the last one's element ends it.
            let emptyFirst = TestScheduler(initialClock: 0)
            let others = (0..<n).map { i -> TestableObservable<Int> in
                switch i {
                case 0: return emptyFirst.createHotObservable([.completed(210)])
                case n - 1: return emptyFirst.createHotObservable([.next(240, 1), .next(250, 1)])
                default: return emptyFirst.createHotObservable([.next(220, 1), .completed(230)])
                }
            }
            let ended = emptyFirst.start { combine(others) }
            XCTAssertEqual(ended.events, [.completed(240)], "\(n) sources")
            XCTAssertEqual(others[n - 1].subscriptions, [Subscription(200, 240)], "\(n) sources")
        }
    }

    func testCombineLatestEightSourcesEveryArityCompiles() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (1...8).map { index in
            scheduler.createHotObservable([.next(200 + index * 10, index), .completed(500)])
        }
        let res = scheduler.start {
            Observable.combineLatest(sources[0], sources[1], sources[2], sources[3], sources[4], sources[5], sources[6], sources[7]) {
                $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7
            }
        }
        XCTAssertEqual(res.events, [.next(280, 36), .completed(500)])

        // Every arity, tuple and selector forms, over `just` sources.
        let j = Observable.just(1)
        var sums: [Int] = []
        _ = Observable.combineLatest(j, j).subscribe(onNext: { sums.append($0.0 + $0.1) })
        _ = Observable.combineLatest(j, j, j).subscribe(onNext: { sums.append($0.0 + $0.1 + $0.2) })
        _ = Observable.combineLatest(j, j, j, j).subscribe(onNext: { sums.append($0.0 + $0.1 + $0.2 + $0.3) })
        _ = Observable.combineLatest(j, j, j, j, j) { $0 + $1 + $2 + $3 + $4 }.subscribe(onNext: { sums.append($0) })
        _ = Observable.combineLatest(j, j, j, j, j, j) { $0 + $1 + $2 + $3 + $4 + $5 }.subscribe(onNext: { sums.append($0) })
        _ = Observable.combineLatest(j, j, j, j, j, j, j).subscribe(onNext: { sums.append($0.0 + $0.6) })
        _ = Observable.combineLatest(j, j, j, j, j, j, j, j).subscribe(onNext: { sums.append($0.0 + $0.7) })
        XCTAssertEqual(sums, [2, 3, 4, 5, 6, 2, 2])
    }

    func testCombineLatestCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(240, 4), .completed(300)])
        let b = scheduler.createHotObservable([.next(220, 2), .completed(310)])
        let c = scheduler.createHotObservable([.next(230, 3), .completed(320)])
        let res = scheduler.start { Observable.combineLatest([a, b, c]).map { $0.map(String.init).joined() } }
        XCTAssertEqual(res.events, [.next(230, "123"), .next(240, "423"), .completed(320)])

        let summed = scheduler.createObserver(Int.self)
        _ = Observable.combineLatest([Observable.just(1), Observable.just(2)]) { $0.reduce(0, +) }.subscribe(summed)
        XCTAssertEqual(summed.events, [.next(1000, 3), .completed(1000)], "recorded at the clock after start()")
    }

    func testCombineLatestEmptyCollectionSendsEmptyResultAndCompletes() {
        var events: [Event<[Int]>] = []
        _ = Observable.combineLatest([Observable<Int>]()).subscribe { events.append($0) }
        XCTAssertEqual(events, [.next([]), .completed])
    }

    func testCombineLatestReentrantSourceUpdateFromObserver() {
        // The observer feeds one source again while handling an element: the recursive lock
        // lets it through and the result reflects the new value.
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        var results: [Int] = []
        let subscription = Observable.combineLatest(a, b) { $0 + $1 }.subscribe(onNext: { value in
            results.append(value)
            if value == 11 { a.onNext(2) }
        })
        a.onNext(1)
        b.onNext(10)
        XCTAssertEqual(results, [11, 12])
        subscription.dispose()
    }

    /// The latest elements are lent to the result selector without a copy. A selector that
    /// feeds a source gets the nested result out first, as RxSwift does, and its own
    /// arguments stay alive and unchanged after the feed; every element is freed once, at the
    /// end (`Tracked` counts them), and the next result uses the fed element.
    func testCombineLatestSelectorFeedingASourceKeepsItsArgumentsAlive() {
        let counter = TrackedCounter()
        let scheduler = TestScheduler(initialClock: 0)
        let a = PublishSubject<Tracked>()
        let b = PublishSubject<Tracked>()
        let c = PublishSubject<Tracked>()
        scheduler.scheduleAt(210) { a.onNext(Tracked("a1", counter)) }
        scheduler.scheduleAt(220) { b.onNext(Tracked("b1", counter)) }
        scheduler.scheduleAt(230) { c.onNext(Tracked("c1", counter)) }
        scheduler.scheduleAt(240) { a.onNext(Tracked("a2", counter)) }
        scheduler.scheduleAt(250) { c.onNext(Tracked("c2", counter)) }
        let res = scheduler.start {
            Observable.combineLatest(a, b, c) { x, y, z -> String in
                let before = x.name + y.name + z.name
                if x.name == "a2" && y.name == "b1" { b.onNext(Tracked("b2", counter)) }
                // Read again after the feed: the lent elements are still these.
                XCTAssertEqual(x.name + y.name + z.name, before)
                return before
            }
        }
        XCTAssertEqual(res.events, [
            .next(230, "a1b1c1"),
            .next(240, "a2b2c1"),
            .next(240, "a2b1c1"),
            .next(250, "a2b2c2"),
        ])
        XCTAssertEqual(counter.live, 0)
        XCTAssertEqual(counter.made, 6)
    }

    /// A throwing selector gives its lent elements back before the error goes out: each is
    /// freed once when the sink goes.
    func testCombineLatestThrowingSelectorFreesEachElementOnce() {
        let counter = TrackedCounter()
        let scheduler = TestScheduler(initialClock: 0)
        let a = PublishSubject<Tracked>()
        let b = PublishSubject<Tracked>()
        scheduler.scheduleAt(210) { a.onNext(Tracked("a1", counter)) }
        scheduler.scheduleAt(220) { b.onNext(Tracked("b1", counter)) }
        scheduler.scheduleAt(230) { a.onNext(Tracked("a2", counter)) }
        let res = scheduler.start {
            Observable.combineLatest(a, b) { x, y -> String in
                if x.name == "a2" { throw testError }
                return x.name + y.name
            }
        }
        XCTAssertEqual(res.events, [.next(220, "a1b1"), .error(230, testError)])
        XCTAssertFalse(a.hasObservers)
        XCTAssertEqual(counter.live, 0)
        XCTAssertEqual(counter.made, 3)
    }
}

/// How many `Tracked` elements were made and are still alive.
private final class TrackedCounter {
    var made = 0
    var live = 0
}

/// An element whose frees are counted: a lent element freed early, or twice, shows.
private final class Tracked {
    let name: String
    let counter: TrackedCounter

    init(_ name: String, _ counter: TrackedCounter) {
        self.name = name
        self.counter = counter
        counter.made += 1
        counter.live += 1
    }

    deinit { counter.live -= 1 }
}
