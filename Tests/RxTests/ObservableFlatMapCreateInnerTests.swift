import Dispatch
import RxSwift
import RxTest
import XCTest

/// `Observable.create` inner sequences that record, on the test scheduler's clock, when
/// they are subscribed to and when the disposable their handler returned is disposed.
/// `flatMap` and `flatMapLatest` run such a handler with their own inner slot as its
/// observer; these tests pin the events and subscriptions of that path.
final class CreateInnerLog {
    let scheduler: TestScheduler
    private var open: [Int: TestTime] = [:]
    private var closed: [(index: Int, subscription: Subscription)] = []
    private var count = 0
    /// With `keepsObservers`, the observers the handlers were given, as a handler that keeps
    /// its observer would (a test empties it before it ends: they reference the sinks).
    var observers: [AnyObserver<Int>] = []
    let keepsObservers: Bool

    init(_ scheduler: TestScheduler, keepsObservers: Bool = false) {
        self.scheduler = scheduler
        self.keepsObservers = keepsObservers
    }

    /// Subscriptions in subscription order; an open one has no end.
    var subscriptions: [Subscription] {
        var all = closed
        for (index, start) in open {
            all.append((index, Subscription(start)))
        }
        return all.sorted { $0.index < $1.index }.map(\.subscription)
    }

    /// An inner sequence whose handler runs `body`; `body` returns what the subscription
    /// must cancel (scheduled work), or `nil`.
    func make(_ body: @escaping (AnyObserver<Int>) -> Disposable?) -> Observable<Int> {
        Observable.create { observer in
            let index = self.count
            self.count += 1
            self.open[index] = self.scheduler.clock
            if self.keepsObservers { self.observers.append(observer) }
            let work = body(observer)
            return Disposables.create {
                if let start = self.open.removeValue(forKey: index) {
                    self.closed.append((index, Subscription(start, self.scheduler.clock)))
                } else {
                    XCTFail("inner \(index) disposed twice")
                }
                work?.dispose()
            }
        }
    }

    /// Runs `action` `delay` ticks from now unless the returned disposable is disposed first.
    func after(_ delay: Int, _ action: @escaping () -> Void) -> Disposable {
        scheduler.scheduleAbsoluteVirtual((), time: scheduler.clock + delay) { _ in
            action()
            return Disposables.create()
        }
    }
}

final class ObservableFlatMapCreateInnerTests: RxTestCase {
    /// `flatMap` and `flatMapLatest`, for the cases where they must behave alike.
    private let operators: [(name: String, apply: (Observable<Int>, @escaping (Int) -> Observable<Int>) -> Observable<Int>)] = [
        ("flatMap", { $0.flatMap($1) }),
        ("flatMapLatest", { $0.flatMapLatest($1) }),
    ]

    func testInnerCompletingDuringSubscribe() {
        for op in operators {
            let scheduler = TestScheduler(initialClock: 0)
            let log = CreateInnerLog(scheduler)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(225, 3), .completed(230)])
            let res = scheduler.start {
                op.apply(xs.asObservable()) { value in
                    log.make { observer in
                        observer.onNext(value * 10)
                        observer.onCompleted()
                        // After the terminal event: dropped.
                        observer.onNext(-1)
                        observer.onCompleted()
                        return nil
                    }
                }
            }
            XCTAssertEqual(res.events, [.next(210, 10), .next(220, 20), .next(225, 30), .completed(230)], op.name)
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)], op.name)
            XCTAssertEqual(log.subscriptions, [Subscription(210, 210), Subscription(220, 220), Subscription(225, 225)], op.name)
        }
    }

    func testInnerFailingDuringSubscribe() {
        for op in operators {
            let scheduler = TestScheduler(initialClock: 0)
            let log = CreateInnerLog(scheduler)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
            let res = scheduler.start {
                op.apply(xs.asObservable()) { value in
                    log.make { observer in
                        observer.onNext(value * 10)
                        if value == 2 {
                            observer.onError(testError)
                            observer.onNext(-1)
                            observer.onCompleted()
                        } else {
                            observer.onCompleted()
                        }
                        return nil
                    }
                }
            }
            XCTAssertEqual(res.events, [.next(210, 10), .next(220, 20), .error(220, testError)], op.name)
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)], op.name)
            XCTAssertEqual(log.subscriptions, [Subscription(210, 210), Subscription(220, 220)], op.name)
        }
    }

    func testDisposedWhileAnInnerEmitsDuringSubscribe() {
        for op in operators {
            let scheduler = TestScheduler(initialClock: 0)
            let log = CreateInnerLog(scheduler)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
            let observer = scheduler.createObserver(Int.self)
            var subscription: Disposable?
            var completions = 0
            scheduler.scheduleAt(200) {
                subscription = op.apply(xs.asObservable()) { value in
                    log.make { inner in
                        inner.onNext(value * 10)
                        inner.onNext(value * 10 + 1)
                        inner.onCompleted()
                        return nil
                    }
                }
                .do(onCompleted: { completions += 1 })
                .subscribe { event in
                    observer.on(event)
                    if case .next(10) = event { subscription?.dispose() }
                }
            }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(210, 10)], op.name)
            XCTAssertEqual(completions, 0, op.name)
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)], op.name)
            XCTAssertEqual(log.subscriptions, [Subscription(210, 210)], op.name)
            subscription = nil
        }
    }

    func testFlatMapInnerEmittingDuringSubscribeThenStayingOpen() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = CreateInnerLog(scheduler)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start {
            xs.flatMap { value in
                log.make { observer in
                    observer.onNext(value * 10)
                    return log.after(value == 1 ? 20 : 40) {
                        observer.onNext(value * 10 + 1)
                        observer.onCompleted()
                    }
                }
            }
        }
        XCTAssertEqual(res.events, [.next(210, 10), .next(220, 20), .next(230, 11), .next(260, 21), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(log.subscriptions, [Subscription(210, 230), Subscription(220, 260)])
    }

    func testFlatMapOpenInnerDisposedWithTheSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = CreateInnerLog(scheduler)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let res = scheduler.start(disposed: 250) {
            xs.flatMap { value in
                log.make { observer in
                    if value == 1 {
                        observer.onCompleted()
                        return nil
                    }
                    observer.onNext(value)
                    return log.after(100) { observer.onNext(-1) }
                }
            }
        }
        XCTAssertEqual(res.events, [.next(220, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(log.subscriptions, [Subscription(210, 210), Subscription(220, 250)])
    }

    func testFlatMapSourceCompletingDuringAnInnerSubscribe() {
        // The inner's handler completes the source before it sends anything: completion
        // waits for that inner, whether it ends during its subscription or later.
        for endsLater in [false, true] {
            let scheduler = TestScheduler(initialClock: 0)
            let log = CreateInnerLog(scheduler)
            let source = PublishSubject<Int>()
            let observer = scheduler.createObserver(Int.self)
            var subscription: Disposable?
            scheduler.scheduleAt(200) {
                subscription = source.flatMap { value in
                    log.make { inner in
                        source.onCompleted()
                        inner.onNext(value)
                        if endsLater {
                            return log.after(10) { inner.onCompleted() }
                        }
                        inner.onCompleted()
                        return nil
                    }
                }
                .subscribe(observer)
            }
            scheduler.scheduleAt(210) { source.onNext(7) }
            scheduler.start()
            let end = endsLater ? 220 : 210
            XCTAssertEqual(observer.events, [.next(210, 7), .completed(end)], "ends later: \(endsLater)")
            XCTAssertEqual(log.subscriptions, [Subscription(210, end)], "ends later: \(endsLater)")
            subscription?.dispose()
        }
    }

    func testFlatMapInnerKeepingItsObserverCannotSendAfterCompleting() {
        // Each handler keeps its observer and completes during its subscription; a later
        // event through a kept observer is dropped, while the inners after it still deliver.
        let scheduler = TestScheduler(initialClock: 0)
        let log = CreateInnerLog(scheduler, keepsObservers: true)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        scheduler.scheduleAt(225) {
            log.observers[0].onNext(-1)
            log.observers[1].onCompleted()
        }
        let res = scheduler.start {
            xs.flatMap { value in
                log.make { observer in
                    observer.onNext(value)
                    observer.onCompleted()
                    return nil
                }
            }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        XCTAssertEqual(log.subscriptions, [Subscription(210, 210), Subscription(220, 220), Subscription(230, 230)])
        log.observers.removeAll()
    }

    func testFlatMapManySynchronousInnersInOrder() {
        var received: [Int] = []
        var completed = 0
        let subscription = Observable.from(Array(0..<200))
            .flatMap { value in
                Observable<Int>.create { observer in
                    observer.onNext(value)
                    if value % 3 == 0 { observer.onNext(-value) }
                    observer.onCompleted()
                    return Disposables.create()
                }
            }
            .subscribe(onNext: { received.append($0) }, onCompleted: { completed += 1 })
        subscription.dispose()
        XCTAssertEqual(received, (0..<200).flatMap { $0 % 3 == 0 ? [$0, -$0] : [$0] })
        XCTAssertEqual(completed, 1)
    }

    /// Synchronous inners forward without the sink's lock only while no grouped inner can
    /// forward: here one sends from another thread the whole time, so every event still
    /// arrives one at a time (a lost count or a recorded anomaly would show two at once).
    func testFlatMapSynchronousInnersBesideAnInnerOnAnotherThread() throws {
        let source = PublishSubject<Int>()
        let go = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        var count = 0
        var completed = 0
        let anomalies = recordingAnomalies {
            let subscription = source
                .flatMap { value -> Observable<Int> in
                    if value != 0 {
                        return Observable.create { observer in
                            observer.onNext(value)
                            observer.onCompleted()
                            return Disposables.create()
                        }
                    }
                    return Observable.create { observer in
                        let background = UncheckedBox(observer)
                        DispatchQueue.global().async {
                            go.wait()
                            for _ in 0..<50_000 { background.value.onNext(-1) }
                            background.value.onCompleted()
                            finished.signal()
                        }
                        return Disposables.create()
                    }
                }
                .subscribe(onNext: { _ in count += 1 }, onCompleted: { completed += 1 })
            source.onNext(0)
            go.signal()
            for value in 1...50_000 { source.onNext(value) }
            finished.wait()
            source.onCompleted()
            subscription.dispose()
        }
        XCTAssertEqual(anomalies, [])
        XCTAssertEqual(count, 100_000)
        XCTAssertEqual(completed, 1)
    }

    func testFlatMapLatestInnerEmittingDuringSubscribeThenStayingOpen() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = CreateInnerLog(scheduler, keepsObservers: true)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start {
            xs.flatMapLatest { value in
                log.make { observer in
                    observer.onNext(value * 10)
                    return log.after(20) {
                        observer.onNext(value * 10 + 1)
                        observer.onCompleted()
                    }
                }
            }
        }
        // The first inner is replaced at 220, before its second element.
        XCTAssertEqual(res.events, [.next(210, 10), .next(220, 20), .next(240, 21), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(log.subscriptions, [Subscription(210, 220), Subscription(220, 240)])
        // A replaced inner's kept observer is no longer heard.
        log.observers[0].onNext(-1)
        XCTAssertEqual(res.events.count, 4)
        log.observers.removeAll()
    }
}
