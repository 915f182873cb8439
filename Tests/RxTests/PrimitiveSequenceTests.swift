import RxSwift
import RxBlocking
import RxTest
import XCTest

final class PrimitiveSequenceTests: RxTestCase {
    // MARK: Single

    func testSingleCreateSendsSuccessOnceAndDisposes() {
        var disposed = 0
        let single = Single<Int>.create { observer in
            observer(.success(1))
            observer(.success(2))
            observer(.failure(testError))
            return Disposables.create { disposed += 1 }
        }
        var results: [String] = []
        let subscription = single.subscribe(onSuccess: { results.append("success \($0)") }, onFailure: { results.append("failure \($0)") }, onDisposed: { results.append("disposed") })
        XCTAssertEqual(results, ["success 1", "disposed"])
        XCTAssertEqual(disposed, 1)
        subscription.dispose()
        XCTAssertEqual(results, ["success 1", "disposed"])
    }

    func testSingleFailureAndResultSubscribe() {
        var results: [SingleEvent<Int>] = []
        let subscription = Single<Int>.error(testError).subscribe { results.append($0) }
        XCTAssertEqual(results.count, 1)
        if case .failure(let error) = results.first {
            XCTAssertEqual(error as? TestError, testError)
        } else {
            XCTFail("expected a failure, got \(results)")
        }
        subscription.dispose()
    }

    func testSingleAsObservableMarblesAndOperators() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Single.just(3, scheduler: scheduler)
                .map { $0 * 2 }
                .flatMap { value in Single.just(value + 1) }
                .asObservable()
        }
        XCTAssertEqual(res.events, [.next(201, 7), .completed(202)])

        let thrown = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Single.just(1).map { _ -> Int in throw testError1 }.asObservable()
        }
        XCTAssertEqual(thrown.events, [.error(1200, testError1)])
    }

    func testSingleNeverDisposedMidwayAndDeferredIsPerSubscription() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let never = scheduler.start(disposed: 300) { Single<Int>.never().asObservable() }
        XCTAssertEqual(never.events, [])

        var made = 0
        let deferred = Single<Int>.deferred {
            made += 1
            return .just(made)
        }
        XCTAssertEqual(try deferred.toBlocking(timeout: 5).single(), 1)
        XCTAssertEqual(try deferred.toBlocking(timeout: 5).single(), 2)
    }

    func testAsSingleChecksElementCount() {
        let scheduler = TestScheduler(initialClock: 0)
        let one = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        XCTAssertEqual(scheduler.start { one.asSingle().asObservable() }.events, [.next(250, 1), .completed(250)])

        let two = scheduler.createHotObservable([.next(1210, 1), .next(1220, 2), .completed(1250)])
        let twoResult = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { two.asSingle().asObservable() }
        XCTAssertEqual(twoResult.events, [.error(1220, RxError.moreThanOneElement)])
        XCTAssertEqual(two.subscriptions, [Subscription(1200, 1220)])

        let none = scheduler.createHotObservable([.completed(2250)] as [Recorded<Event<Int>>])
        let noneResult = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) { none.asSingle().asObservable() }
        XCTAssertEqual(noneResult.events, [.error(2250, RxError.noElements)])
    }

    func testSingleReentrantSubscribeFromSuccess() {
        var results: [Int] = []
        var inner: Disposable?
        let single = Single.just(1)
        let outer = single.subscribe(onSuccess: { value in
            results.append(value)
            inner = single.map { $0 + 1 }.subscribe(onSuccess: { results.append($0) })
        })
        XCTAssertEqual(results, [1, 2])
        outer.dispose()
        inner?.dispose()
    }

    func testSingleCatchAndReturnAndConversions() throws {
        XCTAssertEqual(try Single<Int>.error(testError).catchAndReturn(5).toBlocking(timeout: 5).single(), 5)
        XCTAssertEqual(try Single.just(2).asMaybe().toBlocking(timeout: 5).toArray(), [2])
        XCTAssertEqual(try Single.just(2).compactMap { $0 > 5 ? $0 : nil }.toBlocking(timeout: 5).toArray(), [])
        XCTAssertEqual(try Single.just(2).asCompletable().toBlocking(timeout: 5).toArray().count, 0)
    }

    func testSingleDoDelayAndThrowingHandler() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [String] = []
        let res = scheduler.start {
            Single.just(4)
                .do(onSuccess: { log.append("success \($0)") }, afterSuccess: { log.append("after \($0)") }, onSubscribe: { log.append("subscribe") }, onDispose: { log.append("dispose") })
                .delay(.seconds(10), scheduler: scheduler)
                .asObservable()
        }
        // RxSwift's delay sends one event per drain: the completion, due at the same time,
        // follows in the next drain (one tick later on a TestScheduler).
        XCTAssertEqual(res.events, [.next(210, 4), .completed(211)])
        XCTAssertEqual(log, ["subscribe", "success 4", "after 4", "dispose"])

        let thrown = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Single.just(4).do(onSuccess: { _ in throw testError }).asObservable()
        }
        XCTAssertEqual(thrown.events, [.error(1200, testError)])
    }

    func testMaybeAndCompletableDo() {
        var log: [String] = []
        let maybe = Maybe<Int>.empty().do(onNext: { log.append("next \($0)") }, onCompleted: { log.append("maybe completed") })
            .subscribe()
        let completable = Completable.error(testError).do(onError: { log.append("error \($0)") }, onCompleted: { log.append("never") })
            .subscribe(onError: { _ in log.append("handled") })
        XCTAssertEqual(log, ["maybe completed", "error TestError(1)", "handled"])
        maybe.dispose()
        completable.dispose()
    }

    func testSingleCatchAndRetry() throws {
        XCTAssertEqual(try Single<Int>.error(testError).catch { _ in .just(8) }.toBlocking(timeout: 5).single(), 8)

        var attempts = 0
        let flaky = Single<Int>.deferred {
            attempts += 1
            return attempts < 3 ? .error(testError) : .just(attempts)
        }
        XCTAssertEqual(try flaky.retry(3).toBlocking(timeout: 5).single(), 3)

        attempts = 0
        XCTAssertThrowsError(try flaky.retry(2).toBlocking(timeout: 5).single()) { XCTAssertEqual($0 as? TestError, testError) }

        attempts = 0
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            flaky.retry(when: { (errors: Observable<Error>) in errors.delay(.seconds(10), scheduler: scheduler) }).asObservable()
        }
        XCTAssertEqual(res.events, [.next(220, 3), .completed(220)])
    }

    func testSingleSubscribeWithObjectHoldsItWeakly() {
        final class Owner {
            var values: [Int] = []
        }
        var owner: Owner? = Owner()
        let subject = PublishSubject<Int>()
        var failures = 0
        let subscription = subject.asSingle().subscribe(with: owner!, onSuccess: { owner, value in owner.values.append(value) }, onFailure: { _, _ in failures += 1 })
        subject.onNext(5)
        subject.onCompleted()
        XCTAssertEqual(owner?.values, [5])
        subscription.dispose()

        let later = PublishSubject<Int>()
        let second = later.asSingle().subscribe(with: owner!, onSuccess: { owner, value in owner.values.append(value) }, onFailure: { _, _ in failures += 1 })
        owner = nil
        later.onError(testError)
        XCTAssertEqual(failures, 0)
        second.dispose()
    }

    // MARK: Maybe

    func testMaybeCreateSuccessEmptyAndError() {
        var results: [String] = []
        let subscriptions = [
            Maybe<Int>.create { observer in
                observer(.success(1))
                observer(.completed)
                return Disposables.create()
            }.subscribe(onSuccess: { results.append("success \($0)") }, onError: { _ in results.append("error") }, onCompleted: { results.append("completed") }, onDisposed: { results.append("disposed") }),
            Maybe<Int>.empty().subscribe(onSuccess: { results.append("success \($0)") }, onCompleted: { results.append("empty") }),
            Maybe<Int>.error(testError).subscribe(onError: { results.append("error \($0)") }),
        ]
        XCTAssertEqual(results, ["success 1", "disposed", "empty", "error TestError(1)"])
        subscriptions.forEach { $0.dispose() }
    }

    func testMaybeOperatorsAndAsMaybe() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(250)])
        let res = scheduler.start {
            xs.asMaybe().map { $0 * 10 }.flatMap { Maybe.just($0 + 1) }.asObservable()
        }
        XCTAssertEqual(res.events, [.next(250, 21), .completed(250)])

        let empty = scheduler.createHotObservable([.completed(1250)] as [Recorded<Event<Int>>])
        let emptyResult = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { empty.asMaybe().ifEmpty(default: 9).asObservable() }
        XCTAssertEqual(emptyResult.events, [.next(1250, 9), .completed(1250)])

        let two = scheduler.createHotObservable([.next(2210, 1), .next(2220, 2)])
        let twoResult = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) { two.asMaybe().asObservable() }
        XCTAssertEqual(twoResult.events, [.error(2220, RxError.moreThanOneElement)])
    }

    // MARK: Completable

    func testCompletableCreateAndSubscribe() {
        var results: [String] = []
        let completed = Completable.create { observer in
            observer(.completed)
            observer(.error(testError))
            return Disposables.create()
        }.subscribe(onCompleted: { results.append("completed") }, onError: { _ in results.append("error") }, onDisposed: { results.append("disposed") })
        let failed = Completable.error(testError).subscribe(onCompleted: { results.append("completed") }, onError: { results.append("error \($0)") })
        XCTAssertEqual(results, ["completed", "disposed", "error TestError(1)"])
        completed.dispose()
        failed.dispose()
    }

    func testCompletableAndThenRunsSecondAfterFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.next(5, 1), .completed(10)])
        let second = scheduler.createColdObservable([.next(5, "a"), .completed(10)])
        let res = scheduler.start {
            first.asCompletable().andThen(second.asObservable())
        }
        XCTAssertEqual(res.events, [.next(215, "a"), .completed(220)])
        XCTAssertEqual(first.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(second.subscriptions, [Subscription(210, 220)])

        let failing = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Completable.error(testError).andThen(Single.just(1)).asObservable()
        }
        XCTAssertEqual(failing.events, [.error(1200, testError)])

        let chained = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            Completable.empty().andThen(Completable.empty()).asObservable()
        }
        XCTAssertEqual(chained.events, [.completed(2200)])
    }

    func testCompletableNeverDisposedAndIgnoreElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let never = scheduler.start(disposed: 300) { Completable.never().asObservable() }
        XCTAssertEqual(never.events, [])
        let xs = scheduler.createHotObservable([.next(1210, 1), .completed(1250)])
        let res = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { xs.asCompletable().asObservable() }
        XCTAssertEqual(res.events, [.completed(1250)])
    }
}
