@testable import EventLoop
import XCTest

/// An entry that orders by an integer key and remembers its place, as a connection does.
private final class Item: IndexedHeapEntry {
    let name: Int
    var heapIndex = -1
    init(_ name: Int) { self.name = name }
    static func precedes(_ key: Int, _ other: Int) -> Bool { key < other }
}

final class IndexedMinHeapTests: XCTestCase {
    /// Every entry's noted index is where it is, and no child precedes its parent.
    private func assertConsistent(_ heap: IndexedMinHeap<Item>, _ live: [Item], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(heap.count, live.count, file: file, line: line)
        for index in 0..<heap.count {
            XCTAssertEqual(heap.entry(at: index).heapIndex, index, "entry at \(index)", file: file, line: line)
            if index > 0 {
                XCTAssertFalse(Item.precedes(heap.key(at: index), heap.key(at: (index - 1) / 4)), "child \(index)", file: file, line: line)
            }
        }
    }

    /// Inserts, key changes up and down, removals from the middle and from the front, in a
    /// seeded random order: the heap stays a heap, each entry knows its place, and the entries
    /// come out of the front in key order.
    func testRandomOperationsKeepOrderAndIndices() {
        var random = SeededRandom(state: 0x5EED)
        var heap = IndexedMinHeap<Item>()
        var live: [Item] = []
        var keys: [Int: Int] = [:]  // name -> key
        var next = 0
        for step in 0..<4_000 {
            switch random.next() % 4 {
            case 0, 1:
                let item = Item(next)
                let key = Int(random.next() % 1_000)
                next += 1
                heap.insert(item, key: key)
                live.append(item)
                keys[item.name] = key
            case 2 where !live.isEmpty:
                let item = live[Int(random.next() % UInt64(live.count))]
                let key = Int(random.next() % 1_000)
                heap.update(at: item.heapIndex, key: key)
                keys[item.name] = key
            case 3 where !live.isEmpty:
                let position = Int(random.next() % UInt64(live.count))
                let item = live.remove(at: position)
                heap.remove(at: item.heapIndex)
                XCTAssertEqual(item.heapIndex, -1)
                keys[item.name] = nil
            default:
                break
            }
            if step % 97 == 0 { assertConsistent(heap, live) }
        }
        assertConsistent(heap, live)
        var drained: [Int] = []
        while let first = heap.first, let key = heap.firstKey {
            XCTAssertEqual(keys[first.name], key)
            drained.append(key)
            heap.remove(at: 0)
        }
        XCTAssertEqual(drained, keys.values.sorted())
        XCTAssertTrue(heap.isEmpty)
    }

    /// Entries leave the front in key order however many children the last node has.
    func testSmallHeapsDrainInOrder() {
        for size in 0...9 {
            var heap = IndexedMinHeap<Item>()
            let keys = (0..<size).map { ($0 * 7) % 10 }
            for (name, key) in keys.enumerated() { heap.insert(Item(name), key: key) }
            var drained: [Int] = []
            while let key = heap.firstKey {
                drained.append(key)
                heap.remove(at: 0)
            }
            XCTAssertEqual(drained, keys.sorted(), "size \(size)")
        }
    }
}

/// A seeded linear congruential generator (Knuth's MMIX constants), so a failure repeats.
private struct SeededRandom {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }
}
