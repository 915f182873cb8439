import RxSwift
import RxTest
import XCTest

/// The RxSwift 5 names forward to the RxSwift 6 operators (each test is marked deprecated so
/// that using the names does not warn).
final class ObservableDeprecatedTests: RxTestCase {
    /// Runs `operation` on a fresh hot source `1@210, 2@220, 3@230, completed@300`; `other`
    /// sends `()` at `otherTime`.
    private func run(otherTime: TestTime = 225, _ operation: @escaping (Observable<Int>, Observable<Void>, TestScheduler) -> Observable<Int>) -> [Recorded<Event<Int>>] {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let other = scheduler.createHotObservable([.next(otherTime, ())])
        return scheduler.start { operation(xs.asObservable(), other.asObservable(), scheduler) }.events
    }

    @available(*, deprecated, message: "exercises deprecated RxSwift 5 names")
    func testCatchAliases() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let caught = scheduler.start { xs.catchError { _ in .just(5) } }
        XCTAssertEqual(caught.events, [.next(210, 1), .next(220, 5), .completed(220)])
        let ys = scheduler.createHotObservable([.error(1220, testError)] as [Recorded<Event<Int>>])
        let returned = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { ys.catchErrorJustReturn(6) }
        XCTAssertEqual(returned.events, [.next(1220, 6), .completed(1220)])
    }

    @available(*, deprecated, message: "exercises deprecated RxSwift 5 names")
    func testTakeAliases() {
        XCTAssertEqual(run { xs, other, _ in xs.takeUntil(other) }, [.next(210, 1), .next(220, 2), .completed(225)])
        XCTAssertEqual(run { xs, _, _ in xs.takeUntil(.inclusive, predicate: { $0 == 2 }) }, [.next(210, 1), .next(220, 2), .completed(220)])
        XCTAssertEqual(run { xs, _, _ in xs.takeWhile { $0 < 3 } }, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(run { xs, _, scheduler in xs.take(.seconds(15), scheduler: scheduler) }, [.next(210, 1), .completed(215)])
    }

    @available(*, deprecated, message: "exercises deprecated RxSwift 5 names")
    func testSkipElementAtAndRetryAliases() {
        XCTAssertEqual(run { xs, _, _ in xs.skipWhile { $0 < 2 } }, [.next(220, 2), .next(230, 3), .completed(300)])
        XCTAssertEqual(run(otherTime: 215) { xs, other, _ in xs.skipUntil(other) }, [.next(220, 2), .next(230, 3), .completed(300)])
        XCTAssertEqual(run { xs, _, _ in xs.elementAt(2) }, [.next(230, 3), .completed(230)])

        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let retried = scheduler.start(disposed: 255) {
            failing.retryWhen { (errors: Observable<Error>) in errors.map { _ in () } }
        }
        XCTAssertEqual(retried.events, [.next(210, 1), .next(230, 1), .next(250, 1)])
    }

    @available(*, deprecated, message: "exercises deprecated RxSwift 5 names")
    func testSingleSubscribeOnErrorAlias() {
        var errors: [String] = []
        let subscription = Single<Int>.error(testError).subscribe(onSuccess: { _ in }, onError: { errors.append("\($0)") })
        XCTAssertEqual(errors, ["TestError(1)"])
        subscription.dispose()
    }
}
