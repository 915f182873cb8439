@testable import EventLoop
import XCTest

/// `ChunkList`: the write queue's chunks, the first one kept inline.
final class ChunkListTests: XCTestCase {
    private func bytes(_ list: ChunkList) -> [UInt8] {
        list.flatMap { Array(UnsafeRawBufferPointer(start: $0.storage, count: $0.count)) }
    }

    func testBytesSpanChunksInOrderAndComeBackOut() {
        let pool = OutputChunkPool()
        var list = ChunkList()
        XCTAssertTrue(list.isEmpty)
        XCTAssertNil(list.last)
        let message = (0..<(OutputChunk.capacity * 2 + 10)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        message.withUnsafeBytes { list.append($0, pool: pool) }
        XCTAssertEqual(list.count, 3)
        XCTAssertEqual(list.map(\.count), [OutputChunk.capacity, OutputChunk.capacity, 10])
        XCTAssertTrue(bytes(list) == message, "the bytes come back in order")
        // A small write fills the last chunk's room before taking a new one.
        ([1, 2, 3] as [UInt8]).withUnsafeBytes { list.append($0, pool: pool) }
        XCTAssertEqual(list.count, 3)
        XCTAssertTrue(bytes(list) == message + [1, 2, 3], "appended after the rest")
    }

    func testRemovingKeepsTheOrderAndEmptiesTheList() {
        let chunks = (0..<4).map { _ in OutputChunk() }
        var list = ChunkList()
        for chunk in chunks { list.append(chunk) }
        XCTAssertTrue(list.first === chunks[0])
        XCTAssertTrue(list.last === chunks[3])
        XCTAssertTrue(list.removeFirst() === chunks[0])
        XCTAssertTrue(list.removeLast() === chunks[3])
        XCTAssertEqual(list.count, 2)
        XCTAssertTrue(list[0] === chunks[1])
        XCTAssertTrue(list[1] === chunks[2])
        list.removeFirst(2)
        XCTAssertTrue(list.isEmpty)
        list.append(chunks[2])
        XCTAssertTrue(list.removeLast() === chunks[2])
        XCTAssertTrue(list.isEmpty)
        for chunk in chunks { list.append(chunk) }
        list.removeAll()
        XCTAssertEqual(list.count, 0)
    }

    /// Removing some of many chunks keeps the rest in order, down to one and back to many.
    func testPartialRemovalsKeepTheRestInOrder() {
        let chunks = (0..<5).map { _ in OutputChunk() }
        var list = ChunkList()
        for chunk in chunks { list.append(chunk) }
        list.removeFirst(3)
        XCTAssertEqual(list.count, 2)
        XCTAssertTrue(list.first === chunks[3])
        XCTAssertTrue(list.last === chunks[4])
        list.removeFirst(1)
        XCTAssertEqual(list.count, 1)
        XCTAssertTrue(list[0] === chunks[4])
        list.append(chunks[0])
        XCTAssertEqual(list.count, 2)
        XCTAssertTrue(list.removeLast() === chunks[0])
        XCTAssertTrue(list.removeFirst() === chunks[4])
        XCTAssertTrue(list.isEmpty)
        list.removeFirst(1)
        XCTAssertTrue(list.isEmpty, "removing from an empty list leaves it empty")
    }
}
