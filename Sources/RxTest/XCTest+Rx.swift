import Rx
import XCTest

/// Asserts two event arrays are equal, printing both when they differ.
public func XCTAssertEqual<Element: Equatable>(_ lhs: [Event<Element>], _ rhs: [Event<Element>], file: StaticString = #filePath, line: UInt = #line) {
    if lhs != rhs {
        XCTFail("Events differ:\nactual:   \(lhs)\nexpected: \(rhs)", file: file, line: line)
    }
}

/// Asserts two events are equal.
public func XCTAssertEqual<Element: Equatable>(_ lhs: Event<Element>, _ rhs: Event<Element>, file: StaticString = #filePath, line: UInt = #line) {
    if lhs != rhs {
        XCTFail("Events differ:\nactual:   \(lhs)\nexpected: \(rhs)", file: file, line: line)
    }
}

/// Asserts two arrays of recorded events are equal, printing the first difference.
public func XCTAssertEqual<Element: Equatable>(_ lhs: [Recorded<Event<Element>>], _ rhs: [Recorded<Event<Element>>], file: StaticString = #filePath, line: UInt = #line) {
    if lhs == rhs { return }
    var firstDifference = ""
    for index in 0..<max(lhs.count, rhs.count) {
        let actual = index < lhs.count ? "\(lhs[index])" : "(nothing)"
        let expected = index < rhs.count ? "\(rhs[index])" : "(nothing)"
        if actual != expected || index >= lhs.count || index >= rhs.count || lhs[index] != rhs[index] {
            firstDifference = "at index \(index): actual \(actual), expected \(expected)"
            break
        }
    }
    XCTFail("Recorded events differ \(firstDifference)\nactual:   \(lhs)\nexpected: \(rhs)", file: file, line: line)
}

/// Asserts two arrays of recorded optional events are equal.
public func XCTAssertEqual<Element: Equatable>(_ lhs: [Recorded<Event<Element?>>], _ rhs: [Recorded<Event<Element?>>], file: StaticString = #filePath, line: UInt = #line) {
    if lhs != rhs {
        XCTFail("Recorded events differ:\nactual:   \(lhs)\nexpected: \(rhs)", file: file, line: line)
    }
}

/// Asserts two subscription arrays are equal.
public func XCTAssertEqual(_ lhs: [Subscription], _ rhs: [Subscription], file: StaticString = #filePath, line: UInt = #line) {
    if lhs != rhs {
        XCTFail("Subscriptions differ:\nactual:   \(lhs)\nexpected: \(rhs)", file: file, line: line)
    }
}

/// Asserts that `stream` holds exactly `elements` as `next` events (other events ignored).
public func XCTAssertRecordedElements<Element: Equatable>(_ stream: [Recorded<Event<Element>>], _ elements: [Element], file: StaticString = #filePath, line: UInt = #line) {
    let recorded = stream.compactMap { $0.value.element }
    if recorded != elements {
        XCTFail("Recorded elements differ:\nactual:   \(recorded)\nexpected: \(elements)", file: file, line: line)
    }
}
