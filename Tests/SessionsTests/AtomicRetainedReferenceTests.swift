import Dispatch
@testable import Sessions
import Synchronization
import XCTest

/// A reference set at most once from any thread, or sealed empty (a session's trace tap).
final class AtomicRetainedReferenceTests: XCTestCase {
    private final class Box: Sendable {}

    /// Holds a reference where two threads can reach it.
    private final class Shared: Sendable {
        let reference = AtomicRetainedReference<Box>()
        let outcomes = Mutex<[Int: String]>([:])
    }

    func testEmptyHoldsNothingAndIsNotSealed() {
        let reference = AtomicRetainedReference<Box>()
        XCTAssertNil(reference.object)
        XCTAssertFalse(reference.isSealed)
    }

    func testSetOnceKeepsTheFirstAndDoesNotRetainTheSecond() {
        let first = Box()
        weak var second: Box?
        let reference = AtomicRetainedReference<Box>()
        XCTAssertTrue(describe(reference.setIfEmpty(first), first) == "set")
        do {
            let other = Box()
            second = other
            XCTAssertEqual(describe(reference.setIfEmpty(other), first), "already set to the expected object")
        }
        XCTAssertNil(second, "the loser is not kept")
        XCTAssertTrue(reference.object === first)
        XCTAssertFalse(reference.isSealed)
    }

    func testSealedEmptyRefusesEverySetter() {
        weak var refused: Box?
        let reference = AtomicRetainedReference<Box>()
        XCTAssertNil(reference.sealIfEmpty(), "nothing was set")
        XCTAssertTrue(reference.isSealed)
        do {
            let box = Box()
            refused = box
            XCTAssertEqual(describe(reference.setIfEmpty(box), nil), "sealed")
        }
        XCTAssertNil(refused, "a refused object is not kept")
        XCTAssertNil(reference.object)
        XCTAssertNil(reference.sealIfEmpty(), "sealing again changes nothing")
    }

    func testSealAfterSetReturnsTheObjectAndKeepsIt() {
        let box = Box()
        let reference = AtomicRetainedReference<Box>()
        _ = reference.setIfEmpty(box)
        XCTAssertTrue(reference.sealIfEmpty() === box)
        XCTAssertFalse(reference.isSealed)
        XCTAssertTrue(reference.object === box)
    }

    /// The reference keeps its object alive, and lets it go when it goes.
    func testReleasesTheObjectWhenItGoes() {
        weak var kept: Box?
        var shared: Shared? = Shared()
        do {
            let box = Box()
            kept = box
            _ = shared!.reference.setIfEmpty(box)
        }
        XCTAssertNotNil(kept, "retained by the reference")
        shared = nil
        XCTAssertNil(kept, "released with the reference")
    }

    /// Two threads set at once: one sets, the other is told the winner; both objects are
    /// released in the end, the loser at once.
    func testOfTwoRacingSettersOneWinsAndNeitherLeaks() {
        for _ in 0..<1_000 {
            weak var firstGone: Box?
            weak var secondGone: Box?
            do {
                let shared = Shared()
                let boxes = [Box(), Box()]
                firstGone = boxes[0]
                secondGone = boxes[1]
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    let outcome = describe(shared.reference.setIfEmpty(boxes[index]), boxes[1 - index])
                    shared.outcomes.withLock { $0[index] = outcome }
                }
                let outcomes = shared.outcomes.withLock { $0 }
                XCTAssertEqual(Set(outcomes.values), ["set", "already set to the expected object"], "\(outcomes)")
                let winner = outcomes[0] == "set" ? 0 : 1
                XCTAssertTrue(shared.reference.object === boxes[winner])
            }
            XCTAssertNil(firstGone)
            XCTAssertNil(secondGone)
        }
    }

    /// A setter racing the seal: either the object is set and the seal returns it, or the
    /// reference is sealed empty and the setter is refused.
    func testSetRacingSealAgree() {
        for _ in 0..<1_000 {
            let shared = Shared()
            let box = Box()
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let outcome = index == 0
                    ? describe(shared.reference.setIfEmpty(box), nil)
                    : (shared.reference.sealIfEmpty() === box ? "sealed after the set" : "sealed empty")
                shared.outcomes.withLock { $0[index] = outcome }
            }
            let outcomes = shared.outcomes.withLock { $0 }
            if outcomes[0] == "set" {
                XCTAssertEqual(outcomes[1], "sealed after the set")
                XCTAssertTrue(shared.reference.object === box)
            } else {
                XCTAssertEqual(outcomes, [0: "sealed", 1: "sealed empty"])
                XCTAssertNil(shared.reference.object)
            }
        }
    }
}

/// A `SetOutcome` as text; `expected` is the object an `.alreadySet` should name.
private func describe<Object>(_ outcome: AtomicRetainedReference<Object>.SetOutcome, _ expected: AnyObject?) -> String {
    switch outcome {
    case .set: return "set"
    case .alreadySet(let object): return object === expected ? "already set to the expected object" : "already set to another object"
    case .sealed: return "sealed"
    }
}
