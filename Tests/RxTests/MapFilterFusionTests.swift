import RxSwift
import RxTest
import XCTest

/// `map` and `filter` after a `map` or `filter` of one element type run as one stage
/// (MapFilterFusion.swift): one sink per subscription, the same events as the chain.
final class MapFilterFusionTests: RxTestCase {
    /// Live resources while subscribed to `make(subject)`, less those of the chain's observables.
    private func resourcesOfOneSubscription(_ make: (Observable<Int>) -> Observable<Int>) -> Int32 {
        let subject = PublishSubject<Int>()
        let chain = make(subject.asObservable())
        let before = Resources.total
        let subscription = chain.subscribe(onNext: { _ in })
        let during = Resources.total
        subscription.dispose()
        return during - before
    }

    func testAChainOfMapsAndFiltersSubscribesOneSink() {
        let one = resourcesOfOneSubscription { $0.map { $0 + 1 } }
        let six = resourcesOfOneSubscription { source in
            source.map { $0 + 1 }.filter { $0 > 0 }.map { $0 * 2 }.filter { _ in true }.filter { $0 < 100 }.map { $0 - 1 }
        }
        XCTAssertEqual(six, one)
    }

    func testAMapThatChangesTheTypeStartsANewStage() {
        let one = resourcesOfOneSubscription { $0.map { $0 + 1 } }
        let two = resourcesOfOneSubscription { $0.map { "\($0)" }.map { $0.count } }
        XCTAssertEqual(two, one + 1)
    }

    func testFusedStagesGiveTheChainsEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .completed(300),
        ])
        let res = scheduler.start {
            xs.map { $0 * 10 }.filter { $0 != 20 }.map { $0 + 1 }.filter { $0 < 50 }.filter { $0 != 11 }.map { "\($0)" }
        }
        XCTAssertEqual(res.events, [.next(230, "31"), .next(240, "41"), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testAThrowingFunctionInsideAFusedStageEndsWithItsErrorAndRunsNoLaterFunction() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        var laterCalls: [Int] = []
        let res = scheduler.start {
            xs.map { $0 + 1 }
                .filter { value in
                    if value == 3 { throw testError }
                    return true
                }
                .map { value -> Int in
                    laterCalls.append(value)
                    return value
                }
        }
        XCTAssertEqual(res.events, [.next(210, 2), .error(220, testError)])
        XCTAssertEqual(laterCalls, [2])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testAFilterThatDropsAnElementRunsNoLaterFunctionOnIt() {
        var calls: [String] = []
        let chain = Observable.from([1, 2, 3])
            .filter { value in calls.append("first \(value)"); return value != 2 }
            .filter { value in calls.append("second \(value)"); return true }
            .map { value -> Int in calls.append("map \(value)"); return value }
        _ = chain.subscribe()
        XCTAssertEqual(calls, ["first 1", "second 1", "map 1", "first 2", "first 3", "second 3", "map 3"])
    }

    /// As a chain of sinks, where the disposed first sink forwards nothing: after a function
    /// disposes the subscription, no later function of the stage runs, for that element or any.
    func testAFunctionThatDisposesTheSubscriptionRunsNoLaterFunction() {
        for operators in ["map map", "map filter", "filter map", "filter filter", "map filter map", "filter map filter"] {
            let subject = PublishSubject<Int>()
            var calls: [String] = []
            var received: [Int] = []
            let subscription = SerialDisposable()
            var chain = subject.asObservable()
            for (index, name) in operators.split(separator: " ").enumerated() {
                let step = "\(name)\(index)"
                if name == "map" {
                    chain = chain.map { value in
                        calls.append("\(step) \(value)")
                        if index == 0 && value == 2 { subscription.dispose() }
                        return value
                    }
                } else {
                    chain = chain.filter { value in
                        calls.append("\(step) \(value)")
                        if index == 0 && value == 2 { subscription.dispose() }
                        return true
                    }
                }
            }
            subscription.disposable = chain.subscribe(onNext: { received.append($0) })
            subject.onNext(1)
            subject.onNext(2)
            subject.onNext(3)
            let steps = operators.split(separator: " ").enumerated().map { "\($1)\($0)" }
            XCTAssertEqual(calls, steps.map { "\($0) 1" } + ["\(steps[0]) 2"], operators)
            XCTAssertEqual(received, [1], operators)
        }
    }

    func testAFusedMapToAnOptionalSendsItsNilResults() {
        var results: [Int?] = []
        _ = Observable.from([1, 2, 3])
            .filter { $0 != 3 }
            .map { $0 == 1 ? nil : $0 }
            .subscribe(onNext: { results.append($0) })
        XCTAssertEqual(results, [nil, 2])
    }

    func testTheStageAFusedStageWasBuiltOnStillWorksAlone() {
        let mapped = Observable.from([1, 2, 3]).map { $0 * 2 }
        let fused = mapped.filter { $0 > 2 }
        var alone: [Int] = [], fusedElements: [Int] = []
        _ = mapped.subscribe(onNext: { alone.append($0) })
        _ = fused.subscribe(onNext: { fusedElements.append($0) })
        XCTAssertEqual(alone, [2, 4, 6])
        XCTAssertEqual(fusedElements, [4, 6])
    }
}
