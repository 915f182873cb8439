import RxSwift
import RxTest
import XCTest

final class ObservableGenerateTests: RxTestCase {
    func testGenerateSendsStatesWhileConditionHolds() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(initialState: 1, condition: { $0 < 20 }, scheduler: scheduler, iterate: { $0 * 3 })
        }
        XCTAssertEqual(res.events, [.next(201, 1), .next(202, 3), .next(203, 9), .completed(204)])
    }

    func testGenerateConditionFailingAtOnceOnlyCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(initialState: 10, condition: { $0 < 5 }, scheduler: scheduler, iterate: { $0 + 1 })
        }
        XCTAssertEqual(res.events, [.completed(201)])
    }

    func testGenerateThrowingConditionFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(initialState: 0, condition: { value in
                if value == 2 { throw testError }
                return true
            }, scheduler: scheduler, iterate: { $0 + 1 })
        }
        XCTAssertEqual(res.events, [.next(201, 0), .next(202, 1), .error(203, testError)])
    }

    func testGenerateThrowingIterateFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(initialState: 0, condition: { _ in true }, scheduler: scheduler, iterate: { _ in throw testError })
        }
        XCTAssertEqual(res.events, [.next(201, 0), .error(202, testError)])
    }

    func testGenerateDisposedMidStreamStops() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 203) {
            Observable.generate(initialState: 0, condition: { _ in true }, scheduler: scheduler, iterate: { $0 + 1 })
        }
        XCTAssertEqual(res.events, [.next(201, 0), .next(202, 1)])
    }

    func testGenerateOnTrampolineWithReentrantObserver() {
        // The observer subscribes again while handling an element: the two runs take turns
        // on the trampoline's queue instead of nesting.
        var values: [Int] = []
        let generated = Observable.generate(initialState: 0, condition: { $0 < 2 }, iterate: { $0 + 1 })
        var inner: Disposable?
        let outer = generated.subscribe(onNext: { value in
            values.append(value)
            if value == 0 && inner == nil {
                inner = generated.map { $0 + 10 }.subscribe(onNext: { values.append($0) })
            }
        })
        XCTAssertEqual(values, [0, 10, 1, 11])
        outer.dispose()
        inner?.dispose()
    }
}
