import RxSwift
import RxRelay
import RxTest
import XCTest

final class RelayTests: RxTestCase {
    func testPublishRelaySendsAcceptedElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = PublishRelay<Int>()
        let observer = scheduler.createObserver(Int.self)
        relay.accept(0)
        let subscription = relay.subscribe(observer)
        scheduler.scheduleAt(10) { relay.accept(1) }
        scheduler.scheduleAt(20) { relay.accept(2) }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(10, 1), .next(20, 2)])
        subscription.dispose()
    }

    func testBehaviorRelayHoldsValue() {
        let relay = BehaviorRelay(value: "a")
        var values: [String] = []
        let subscription = relay.asObservable().subscribe(onNext: { values.append($0) })
        relay.accept("b")
        XCTAssertEqual(relay.value, "b")
        XCTAssertEqual(values, ["a", "b"])
        subscription.dispose()
    }

    func testReplayRelayReplaysBuffer() {
        let relay = ReplayRelay<Int>.create(bufferSize: 2)
        relay.accept(1)
        relay.accept(2)
        relay.accept(3)
        var values: [Int] = []
        let subscription = relay.subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values, [2, 3])
        subscription.dispose()
        let unbound = ReplayRelay<Int>.createUnbound()
        unbound.accept(1)
        unbound.accept(2)
        var all: [Int] = []
        _ = unbound.subscribe(onNext: { all.append($0) }).dispose()
        XCTAssertEqual(all, [1, 2])
    }

    func testBindToRelaysDropsCompletion() {
        let publish = PublishRelay<Int>()
        let behavior = BehaviorRelay(value: 0)
        let replay = ReplayRelay<Int>.createUnbound()
        let optional = BehaviorRelay<Int?>(value: nil)
        var published: [Event<Int>] = []
        let observed = publish.subscribe { published.append($0) }
        let bindings = [
            Observable.of(1, 2).bind(to: publish),
            Observable.of(3, 4).bind(to: behavior),
            Observable.of(5, 6).bind(to: replay),
            Observable.of(7).bind(to: optional),
        ]
        XCTAssertEqual(published, [.next(1), .next(2)], "completion is not forwarded to a relay")
        XCTAssertEqual(behavior.value, 4)
        XCTAssertEqual(optional.value, 7)
        var replayed: [Int] = []
        _ = replay.subscribe(onNext: { replayed.append($0) }).dispose()
        XCTAssertEqual(replayed, [5, 6])
        bindings.forEach { $0.dispose() }
        observed.dispose()
    }

    func testBindToObserversForwardsEveryEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let optional = scheduler.createObserver(Int?.self)
        _ = Observable.of(1, 2).bind(to: first, second)
        _ = Observable.of(3).bind(to: optional)
        XCTAssertEqual(first.events, [.next(0, 1), .next(0, 2), .completed(0)])
        XCTAssertEqual(second.events, first.events)
        XCTAssertEqual(optional.events, [.next(0, 3), .completed(0)])
    }

    func testBinderAppliesOnScheduler() {
        final class Label { var text = "" }
        let scheduler = TestScheduler(initialClock: 0)
        let label = Label()
        let binder = Binder(label, scheduler: scheduler) { label, text in label.text = text }
        let subject = PublishSubject<String>()
        let subscription = subject.bind(to: binder)
        scheduler.scheduleAt(10) { subject.onNext("hello") }
        scheduler.advanceTo(10)
        XCTAssertEqual(label.text, "", "the binding runs on the binder's scheduler")
        scheduler.advanceTo(11)
        XCTAssertEqual(label.text, "hello")
        subscription.dispose()
    }
}
