/// An object that knows its place in a `ConnectionTable`.
protocol ConnectionTableEntry: AnyObject {
    /// Its index in the table it is in; -1 when in none. Kept by the table.
    var tableIndex: Int { get set }
}

/// A server's open connections of one kind: an array in which each connection keeps its own
/// index, so adding and removing one is O(1) with no hashing (removal moves the last entry
/// into the gap). Order is not kept. Loop thread only.
struct ConnectionTable<Entry: ConnectionTableEntry> {
    private(set) var entries: [Entry] = []

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    mutating func insert(_ entry: Entry) {
        precondition(entry.tableIndex < 0, "a connection is in one table at a time")
        entry.tableIndex = entries.count
        entries.append(entry)
    }

    /// Removes `entry` if it is in the table, and gives most of the memory back once the table
    /// is mostly empty (an array never shrinks by itself, so it would stay at its peak size).
    mutating func remove(_ entry: Entry) {
        let index = entry.tableIndex
        guard index >= 0, index < entries.count, entries[index] === entry else { return }
        entry.tableIndex = -1
        let last = entries.removeLast()
        if index < entries.count {
            entries[index] = last
            last.tableIndex = index
        }
        if entries.capacity > 256 && entries.count < entries.capacity / 8 {
            var smaller: [Entry] = []
            smaller.reserveCapacity(entries.count * 2)
            smaller.append(contentsOf: entries)
            entries = smaller
        }
    }
}
