/// An entry of an `IndexedMinHeap`: it keeps its own index, so it can leave from the middle.
protocol IndexedHeapEntry {
    /// The entry's index in its heap; -1 while in none.
    var heapIndex: Int { get nonmutating set }
    /// Whether `self` comes out of the heap before `other`.
    func precedes(_ other: Self) -> Bool
}

/// An array min-heap whose entries know their index: the loop's connection deadlines and its
/// timed tasks, each on one libuv timer armed for the first entry.
struct IndexedMinHeap<Entry: IndexedHeapEntry> {
    private(set) var entries: [Entry] = []

    var first: Entry? { entries.first }
    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    /// Adds `entry`, which is in no heap.
    mutating func insert(_ entry: Entry) {
        entry.heapIndex = entries.count
        entries.append(entry)
        siftUp(entries.count - 1)
    }

    /// Moves the entry at `index` to its place after its key changed.
    mutating func update(at index: Int) {
        let entry = entries[index]
        siftUp(index)
        siftDown(entry.heapIndex)
    }

    /// Takes out the entry at `index`.
    mutating func remove(at index: Int) {
        entries[index].heapIndex = -1
        let last = entries.removeLast()
        // Lets a large storage go once the heap empties; a small one stays, as a loop whose
        // entries come and go one at a time would free and allocate it each time.
        if entries.isEmpty && entries.capacity > 64 { entries = [] }
        guard index < entries.count else { return }
        entries[index] = last
        last.heapIndex = index
        update(at: index)
    }

    /// Takes out every entry and returns them, in no order.
    mutating func removeAll() -> [Entry] {
        let all = entries
        entries = []
        for entry in all { entry.heapIndex = -1 }
        return all
    }

    private mutating func swapAt(_ a: Int, _ b: Int) {
        entries.swapAt(a, b)
        entries[a].heapIndex = a
        entries[b].heapIndex = b
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].precedes(entries[parent]) else { return }
            swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { return }
            let right = left + 1
            let first = right < entries.count && entries[right].precedes(entries[left]) ? right : left
            guard entries[first].precedes(entries[parent]) else { return }
            swapAt(parent, first)
            parent = first
        }
    }
}
