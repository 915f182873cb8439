import Rx
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
        var forwarded: [Int] = []
        let watch = publish.subscribe(onNext: { forwarded.append($0) })
        let source = PublishRelay<Int>()
        var log: [String] = []
        let signal = source.asSignal()
        let disposables = [
            signal.emit(to: publish),
            signal.emit(to: behavior),
            signal.emit(to: replay),
            signal.emit(with: screen, onNext: { $0.shown.append($1) }),
            signal.emit(onNext: { log.append("\($0)") }, onDisposed: { log.append("disposed") }),
        ]
        source.accept(1)
        source.accept(2)
        disposables.forEach { $0.dispose() }
        source.accept(3)
        XCTAssertEqual(forwarded, [1, 2])
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
        let subscription = source.asSignal().withUnretained(owner!).emit(onNext: { received.append($1) }, onCompleted: { completed = true })
        source.accept(1)
        owner = nil
        source.accept(2)
        XCTAssertEqual(received, [1])
        XCTAssertTrue(completed)
        subscription.dispose()
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
