import RxSwift
import RxCocoa
import XCTest

/// Async blocks as drivers and signals, read back through `values` (the default sharing
/// scheduler, `MainScheduler`, hosts on a serial dispatch queue in tests).
final class SharedSequenceConcurrencyTests: RxCocoaTestCase {
    @MainActor
    func testSignalFromAsyncBlockSendsItsResultOrTheReplacement() async {
        var results: [Int] = []
        for await value in Signal.from({ 6 * 7 }, onErrorJustReturn: -1).values {
            results.append(value)
        }
        for await value in Signal<Int>.from({ throw testError }, onErrorJustReturn: -1).values {
            results.append(value)
        }
        for await value in Signal<Int>.from({ throw testError }, onErrorRecover: { _ in Signal.just(-2) }).values {
            results.append(value)
        }
        XCTAssertEqual(results, [42, -1, -2])
    }

    @MainActor
    func testDriverFromAsyncBlock() async {
        var results: [String] = []
        let driver = Driver<String>.never()
        for await value in driver.from({ "async" }, onErrorJustReturn: "error").values {
            results.append(value)
        }
        for await value in driver.from({ throw testError }, onErrorDriveWith: Driver.just("fallback")).values {
            results.append(value)
        }
        XCTAssertEqual(results, ["async", "fallback"])
    }
}
