import Calculator
import RxCocoa
import RxSwift
import RxTest
import XCTest

/// The calculator's reducer and view model on virtual time, with RxTest marbles as an iOS
/// app's tests would: the keys as a hot observable, the display recorded.
final class CalculatorViewModelTests: XCTestCase {
    /// The display after each of `keys` (typed as text, one every 10 ticks from 100).
    private func displays(_ keys: String...) throws -> [String] {
        let scheduler = TestScheduler(initialClock: 0)
        var result: [String] = []
        try SharingScheduler.mock(scheduler: scheduler) {
            let events = try keys.enumerated().map { index, key in
                Recorded.next(100 + 10 * index, try CalculatorCommand(key: key))
            }
            let viewModel = CalculatorViewModel(commands: scheduler.createHotObservable(events).asObservable())
            let display = scheduler.start(created: 0, subscribed: 0, disposed: 10_000) { viewModel.display.asObservable() }
            result = display.events.compactMap(\.value.element)
        }
        return result
    }

    func testDigitsOperatorsAndEqualsComputeAsTyped() throws {
        XCTAssertEqual(try displays("1", "2", "+", "3", "="), ["0", "1", "12", "3", "15"])
    }

    func testASecondOperatorRunsTheFirstAndEqualsWithoutOneChangesNothing() throws {
        XCTAssertEqual(try displays("=", "2", "+", "3", "*", "4", "="), ["0", "2", "3", "5", "4", "20"])
    }

    func testDotSignPercentAndClear() throws {
        XCTAssertEqual(try displays(".", "5", "±", "%", "C"), ["0", "0.", "0.5", "-0.5", "-0.005", "0"])
        XCTAssertEqual(try displays("0", ".", "1", "+", ".", "2", "="), ["0", "0.", "0.1", "0.", "0.2", "0.3"])
    }

    func testDivisionByZeroShowsErrorUntilTheNextNumber() throws {
        XCTAssertEqual(try displays("7", "/", "0", "=", "4"), ["0", "7", "0", "Error", "4"])
    }

    func testTheStateTellsWhatIsPending() {
        let state = [CalculatorCommand.digit(1), .digit(2), .operation(.multiply)].reduce(CalculatorState.cleared) { $0.reduce($1) }
        XCTAssertEqual(state.pendingDescription, "12 ×")
        XCTAssertEqual(state.reduce(.digit(2)).reduce(.equals).pendingDescription, "")
        XCTAssertEqual(CalculatorState.cleared.pendingDescription, "")
    }

    func testAKeyTheCalculatorDoesNotHaveIsRefused() {
        XCTAssertThrowsError(try CalculatorCommand(key: "x")) { error in
            XCTAssertEqual("\(error)", "no key \"x\": use 0-9 . + - * / = C ± %")
        }
        XCTAssertThrowsError(try CalculatorCommand(key: "12"))
    }
}
