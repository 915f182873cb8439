import RxSwift
import RxTest
import XCTest
import ViewModels

final class SumViewModelTests: XCTestCase {
    private func sums(
        _ number1: [Recorded<Event<String>>], _ number2: [Recorded<Event<String>>], _ number3: [Recorded<Event<String>>]
    ) -> [Recorded<Event<Int128>>] {
        let scheduler = TestScheduler(initialClock: 0)
        let input = SumViewModel.Input(
            number1: scheduler.createHotObservable(number1).asObservable(),
            number2: scheduler.createHotObservable(number2).asObservable(),
            number3: scheduler.createHotObservable(number3).asObservable())
        let output = SumViewModel().transform(input: input)
        let observer = scheduler.start(created: 0, subscribed: 0, disposed: 10_000) { output.sum }
        return observer.events
    }

    func testSumsEveryChangeOnceAllThreeHaveAValue() {
        XCTAssertEqual(
            sums([.next(100, "1"), .next(400, "10")], [.next(200, "2")], [.next(300, "3"), .next(500, "30")]),
            [.next(300, 6), .next(400, 15), .next(500, 42)])
    }

    func testNothingUntilAllThreeHaveAValue() {
        XCTAssertEqual(sums([.next(100, "1")], [.next(200, "2"), .next(300, "5")], []), [])
    }

    func testNonNumbersCountAsZero() {
        XCTAssertEqual(
            sums([.next(100, "1"), .next(400, "x")], [.next(200, "")], [.next(300, "3"), .next(500, "4.5"), .next(600, "0x10")]),
            [.next(300, 4), .next(400, 3), .next(500, 0), .next(600, 0)])
    }

    func testSignsAndSpacesAsIntParsesThem() {
        // `Int(_:)` accepts one leading sign and nothing else around the digits.
        XCTAssertEqual(
            sums([.next(100, "-5")], [.next(100, "+7")], [.next(100, " 4"), .next(200, "4 "), .next(300, "- 4"), .next(400, "-4")]),
            [.next(100, 2), .next(200, 2), .next(300, 2), .next(400, -2)])
    }

    func testHugeValuesNeverOverflow() {
        let max = String(Int.max), min = String(Int.min)
        XCTAssertEqual(
            sums([.next(100, max), .next(200, min)], [.next(100, max), .next(200, min)], [.next(100, max), .next(200, min), .next(300, "99999999999999999999")]),
            [
                .next(100, Int128(Int.max) * 3),
                .next(200, Int128(Int.min) + Int128(Int.max) * 2),
                .next(200, Int128(Int.min) * 2 + Int128(Int.max)),
                .next(200, Int128(Int.min) * 3),
                .next(300, Int128(Int.min) * 2),
            ])
    }

    func testNumbersTooBigForIntCountAsZero() {
        XCTAssertEqual(sums([.next(100, "9223372036854775808")], [.next(100, "1")], [.next(100, "-9223372036854775809")]), [.next(100, 1)])
    }
}
