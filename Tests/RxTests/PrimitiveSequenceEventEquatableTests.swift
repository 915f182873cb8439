import RxSwift
import RxTest
import XCTest

/// RxTest's equality of the traits' results, used to assert what `subscribe(_:)` receives.
final class PrimitiveSequenceEventEquatableTests: RxTestCase {
    func testMaybeEventsCompareKindElementAndError() {
        var received: [MaybeEvent<Int>] = []
        _ = Maybe.just(1).subscribe { received.append($0) }
        _ = Maybe<Int>.empty().subscribe { received.append($0) }
        _ = Maybe<Int>.error(testError).subscribe { received.append($0) }
        XCTAssertEqual(received, [.success(1), .completed, .error(testError)])
        XCTAssertNotEqual(received[0], .success(2))
        XCTAssertNotEqual(received[2], .error(testError2))
        XCTAssertNotEqual(received[1], .error(testError))
    }

    func testCompletableEventsCompareKindAndError() {
        var received: [CompletableEvent] = []
        _ = Completable.empty().subscribe { received.append($0) }
        _ = Completable.error(testError).subscribe { received.append($0) }
        XCTAssertEqual(received, [.completed, .error(testError)])
        XCTAssertNotEqual(received[1], .error(testError1))
        XCTAssertNotEqual(received[0], received[1])
    }

    func testSingleEventsCompareWithTheirOwnEquality() {
        var received: [SingleEvent<Int>] = []
        _ = Single.just(5).subscribe { received.append($0) }
        _ = Single<Int>.error(testError).subscribe { received.append($0) }
        XCTAssertTrue(received[0] == .success(5))
        XCTAssertFalse(received[0] == .success(6))
        XCTAssertTrue(received[1] == .failure(testError))
        XCTAssertFalse(received[1] == .failure(testError2))
        XCTAssertFalse(received[0] == received[1])
    }
}
