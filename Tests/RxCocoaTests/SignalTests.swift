import RxSwift
import RxCocoa
import RxRelay
import RxTest
import XCTest

final class SignalTests: RxCocoaTestCase {
    func testSignalSharesWithoutReplay() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(40, 3)])
        SharingScheduler.mock(scheduler: scheduler) {
            let signal = xs.asSignal(onErrorJustReturn: 0)
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) { subscriptions.append(signal.emit(to: first)) }
            scheduler.scheduleAt(225) { subscriptions.append(signal.emit(to: second)) }
            scheduler.scheduleAt(260) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()
            XCTAssertEqual(first.events, [.next(211, 1), .next(221, 2), .next(241, 3)])
            XCTAssertEqual(second.events, [.next(241, 3)], "a signal replays nothing")
        }
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testAsSignalOnErrorSignalWithAndRecover() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .error(220, testError)])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start { xs.asSignal(onErrorSignalWith: Signal.just("fallback")).asObservable() }
            XCTAssertEqual(res.events, [.next(211, "a"), .next(222, "fallback"), .completed(222)])
        }
        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.error(220, testError, String.self)])
        SharingScheduler.mock(scheduler: other) {
            let res = other.start { ys.asSignal(onErrorRecover: { _ in Signal.empty() }).asObservable() }
            XCTAssertEqual(res.events, [.completed(222)])
        }
    }

    func testEmitToRelaysAndClosures() {
        final class Screen { var shown: [Int] = [] }
        let screen = Screen()
        let publish = PublishRelay<Int>()
        let behavior = BehaviorRelay<Int?>(value: nil)
        let replay = ReplayRelay<Int>.create(bufferSize: 1)
        let scheduler = TestScheduler(initialClock: 0)
        let forwarded = scheduler.createObserver(Int.self)
        let watch = publish.subscribe(forwarded)
        let source = PublishRelay<Int>()
        var log: [String] = []
        SharingScheduler.mock(scheduler: scheduler) {
            let signal = source.asSignal()
            let disposables = [
                signal.emit(to: publish),
                signal.emit(to: behavior),
                signal.emit(to: replay),
                signal.emit(with: screen, onNext: { $0.shown.append($1) }),
                signal.emit(onNext: { log.append("\($0)") }, onDisposed: { log.append("disposed") }),
            ]
            scheduler.scheduleAt(10) { source.accept(1) }
            scheduler.scheduleAt(20) { source.accept(2) }
            scheduler.scheduleAt(30) { disposables.forEach { $0.dispose() } }
            scheduler.scheduleAt(40) { source.accept(3) }
            scheduler.start()
        }
        XCTAssertEqual(forwarded.events, [.next(11, 1), .next(21, 2)], "accepted values reach the signal one tick later, on its scheduler")
        XCTAssertEqual(behavior.value, 2)
        XCTAssertEqual(screen.shown, [1, 2])
        XCTAssertEqual(log, ["1", "2", "disposed"])
        var replayed: [Int] = []
        _ = replay.subscribe(onNext: { replayed.append($0) })
        XCTAssertEqual(replayed, [2])
        watch.dispose()
    }

    func testSignalWithUnretainedCompletesWhenTheObjectIsGone() {
        final class Owner {}
        var owner: Owner? = Owner()
        let source = PublishRelay<Int>()
        var received: [Int] = []
        var completed = false
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let subscription = source.asSignal().withUnretained(owner!).emit(onNext: { received.append($1) }, onCompleted: { completed = true })
            scheduler.scheduleAt(10) { source.accept(1) }
            scheduler.scheduleAt(20) { owner = nil }
            scheduler.scheduleAt(30) { source.accept(2) }
            scheduler.start()
            subscription.dispose()
        }
        XCTAssertEqual(received, [1])
        XCTAssertTrue(completed)
    }

    func testMergeOfSignals() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, "a"), .next(230, "c")])
        let b = scheduler.createHotObservable([.next(220, "b")])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start {
                Signal.merge(a.asSignal(onErrorJustReturn: ""), b.asSignal(onErrorJustReturn: "")).asObservable()
            }
            XCTAssertEqual(res.events, [.next(211, "a"), .next(221, "b"), .next(231, "c")])
        }
        XCTAssertEqual(a.subscriptions, [Subscription(200, 1000)])
    }
}
