import RxSwift
import XCTest

/// Asserts two lists of events are equal (`next` by element, errors by domain, code and
/// description, `completed` always), printing both and each difference when they are not.
public func XCTAssertEqual<T: Equatable>(_ lhs: [Event<T>], _ rhs: [Event<T>], file: StaticString = #filePath, line: UInt = #line) {
    assertEqualSequences(lhs, rhs, what: "Events", file: file, line: line)
}

/// Asserts two lists of `Single` results are equal.
public func XCTAssertEqual<T: Equatable>(_ lhs: [SingleEvent<T>], _ rhs: [SingleEvent<T>], file: StaticString = #filePath, line: UInt = #line) {
    assertSequencesEqual(lhs, rhs, { $0 == $1 }, what: "Single events", file: file, line: line)
}

/// Asserts two lists of `Maybe` results are equal.
public func XCTAssertEqual<T: Equatable>(_ lhs: [MaybeEvent<T>], _ rhs: [MaybeEvent<T>], file: StaticString = #filePath, line: UInt = #line) {
    assertEqualSequences(lhs, rhs, what: "Maybe events", file: file, line: line)
}

/// Asserts two lists of `Completable` results are equal.
public func XCTAssertEqual(_ lhs: [CompletableEvent], _ rhs: [CompletableEvent], file: StaticString = #filePath, line: UInt = #line) {
    assertEqualSequences(lhs, rhs, what: "Completable events", file: file, line: line)
}

/// Asserts two lists of recorded events are equal: same times and equal events.
public func XCTAssertEqual<T: Equatable>(_ lhs: [Recorded<Event<T>>], _ rhs: [Recorded<Event<T>>], file: StaticString = #filePath, line: UInt = #line) {
    assertEqualSequences(lhs, rhs, what: "Recorded events", file: file, line: line)
}

/// Asserts two lists of recorded events with optional elements are equal.
public func XCTAssertEqual<T: Equatable>(_ lhs: [Recorded<Event<T?>>], _ rhs: [Recorded<Event<T?>>], file: StaticString = #filePath, line: UInt = #line) {
    assertEqualSequences(lhs, rhs, what: "Recorded events", file: file, line: line)
}

/// Asserts two events are equal.
public func XCTAssertEqual<T: Equatable>(_ lhs: Event<T>, _ rhs: Event<T>, file: StaticString = #filePath, line: UInt = #line) {
    if lhs != rhs {
        XCTFail("Events differ:\nactual:   \(lhs)\nexpected: \(rhs)", file: file, line: line)
    }
}

/// Asserts two lists of subscriptions are equal.
public func XCTAssertEqual(_ lhs: [Subscription], _ rhs: [Subscription], file: StaticString = #filePath, line: UInt = #line) {
    assertEqualSequences(lhs, rhs, what: "Subscriptions", file: file, line: line)
}

/// Asserts that `stream` is exactly `elements` as `next` events, whatever their times. A
/// terminal event (`completed` or `error`) in `stream` fails the assertion, as in RxSwift.
public func XCTAssertRecordedElements<T: Equatable>(_ stream: [Recorded<Event<T>>], _ elements: [T], file: StaticString = #filePath, line: UInt = #line) {
    if let stopEvent = stream.first(where: { $0.value.isStopEvent }) {
        XCTFail("A non-next stop event has been emitted: \(stopEvent)", file: file, line: line)
        return
    }
    let recorded = stream.compactMap { $0.value.element }
    assertEqualSequences(recorded, elements, what: "Recorded elements", file: file, line: line)
}

/// Fails with both lists and the first difference when `lhs` and `rhs` differ.
private func assertEqualSequences<E: Equatable>(_ lhs: [E], _ rhs: [E], what: String, file: StaticString, line: UInt) {
    if lhs == rhs {
        return
    }
    let index = zip(lhs, rhs).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset ?? min(lhs.count, rhs.count)
    reportDifference(lhs, rhs, at: index, what: what, file: file, line: line)
}

/// Fails with both lists and the first difference when `lhs` and `rhs` differ by `equal`.
private func assertSequencesEqual<E>(_ lhs: [E], _ rhs: [E], _ equal: (E, E) -> Bool, what: String, file: StaticString, line: UInt) {
    if lhs.count == rhs.count && zip(lhs, rhs).allSatisfy({ equal($0, $1) }) {
        return
    }
    let index = zip(lhs, rhs).enumerated().first(where: { !equal($0.element.0, $0.element.1) })?.offset ?? min(lhs.count, rhs.count)
    reportDifference(lhs, rhs, at: index, what: what, file: file, line: line)
}

private func reportDifference<E>(_ lhs: [E], _ rhs: [E], at index: Int, what: String, file: StaticString, line: UInt) {
    let actual = index < lhs.count ? String(describing: lhs[index]) : "(nothing)"
    let expected = index < rhs.count ? String(describing: rhs[index]) : "(nothing)"
    XCTFail("\(what) differ at index \(index): actual \(actual), expected \(expected)\nactual:   \(lhs)\nexpected: \(rhs)", file: file, line: line)
}
