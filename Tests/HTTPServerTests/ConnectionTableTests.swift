@testable import HTTPServer
import XCTest

/// `ConnectionTable`: each entry keeps its index through insertions and swap-removals.
final class ConnectionTableTests: XCTestCase {
    private final class Entry: ConnectionTableEntry {
        var tableIndex = -1
    }

    private func assertIndexesMatch(_ table: ConnectionTable<Entry>, file: StaticString = #filePath, line: UInt = #line) {
        for (index, entry) in table.entries.enumerated() {
            XCTAssertEqual(entry.tableIndex, index, file: file, line: line)
        }
    }

    func testRemovalMovesTheLastEntryIntoTheGap() {
        var table = ConnectionTable<Entry>()
        let entries = (0..<5).map { _ in Entry() }
        for entry in entries { table.insert(entry) }
        XCTAssertEqual(table.count, 5)
        table.remove(entries[1])
        XCTAssertEqual(entries[1].tableIndex, -1)
        XCTAssertTrue(table.entries[1] === entries[4])
        assertIndexesMatch(table)
        table.remove(entries[3])  // the last one now
        table.remove(entries[0])
        XCTAssertEqual(Set(table.entries.map(ObjectIdentifier.init)), Set([entries[2], entries[4]].map(ObjectIdentifier.init)))
        assertIndexesMatch(table)
        table.remove(entries[2])
        table.remove(entries[4])
        XCTAssertTrue(table.isEmpty)
    }

    func testRemovingAnEntryNotInTheTableChangesNothing() {
        var table = ConnectionTable<Entry>()
        var other = ConnectionTable<Entry>()
        let kept = Entry()
        let elsewhere = Entry()
        table.insert(kept)
        other.insert(elsewhere)  // index 0 in another table
        table.remove(elsewhere)
        table.remove(Entry())
        XCTAssertEqual(table.count, 1)
        XCTAssertTrue(table.entries[0] === kept)
        XCTAssertEqual(elsewhere.tableIndex, 0)
    }

    func testAMostlyEmptyTableGivesItsMemoryBack() {
        var table = ConnectionTable<Entry>()
        let entries = (0..<2_000).map { _ in Entry() }
        for entry in entries { table.insert(entry) }
        let peak = table.entries.capacity
        for entry in entries.dropFirst(10) { table.remove(entry) }
        XCTAssertEqual(table.count, 10)
        XCTAssertLessThan(table.entries.capacity, peak / 8)
        assertIndexesMatch(table)
    }
}
