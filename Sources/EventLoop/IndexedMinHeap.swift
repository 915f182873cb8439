/// An entry of an `IndexedMinHeap`: it keeps its own index, so it can leave from the middle.
protocol IndexedHeapEntry {
    /// What the heap orders entries by, kept in the heap beside each entry.
    associatedtype Key
    /// The entry's index in its heap; -1 while in none.
    var heapIndex: Int { get nonmutating set }
    /// Whether an entry keyed `key` comes out of the heap before one keyed `other`.
    static func precedes(_ key: Key, _ other: Key) -> Bool
}

/// An array min-heap whose entries know their index: the loop's connection deadlines and its
/// timed tasks, each on one libuv timer armed for the first entry.
///
/// Four children a node and each key stored beside its entry: with tens of thousands of
/// connections on a loop, ordering reads only the heap's own array, and an entry is touched
/// only to note its index, once per level it moves, over half the levels of a binary heap.
/// A binary heap reading keys through its entries took twice the instructions and thrice
/// the cache misses to sift (callgrind with its cache model, 19,000 sessions pinged each
/// second: 732 instructions and 6.1 level-1 misses a ping, 316 and 2.0 here; a whole ping
/// 3,084 instructions and 22.6 misses, now 2,771 and 18.9).
struct IndexedMinHeap<Entry: IndexedHeapEntry> {
    /// The entries and, at the same indices, their keys: two arrays rather than one of pairs,
    /// whose padding would take 16 bytes a connection where these take 12.
    private var entries: [Entry] = []
    private var keys: [Entry.Key] = []

    var first: Entry? { entries.first }
    /// The first entry's key.
    var firstKey: Entry.Key? { keys.first }
    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    /// The entry at `index`, which is below `count`.
    func entry(at index: Int) -> Entry { entries[index] }

    /// The key of the entry at `index`, which is below `count`.
    func key(at index: Int) -> Entry.Key { keys[index] }

    /// Adds `entry`, which is in no heap, keyed `key`.
    mutating func insert(_ entry: Entry, key: Entry.Key) {
        entries.append(entry)
        keys.append(key)
        siftUp(entry, key, from: entries.count - 1)
    }

    /// Gives the entry at `index` the key `key` and moves it to its place.
    mutating func update(at index: Int, key: Entry.Key) {
        keys[index] = key
        place(at: index)
    }

    /// Takes out the entry at `index`.
    mutating func remove(at index: Int) {
        entries[index].heapIndex = -1
        let last = entries.removeLast()
        let lastKey = keys.removeLast()
        // Lets a large storage go once the heap empties; a small one stays, as a loop whose
        // entries come and go one at a time would free and allocate it each time.
        if entries.isEmpty && entries.capacity > 64 {
            entries = []
            keys = []
        }
        guard index < entries.count else { return }
        entries[index] = last
        keys[index] = lastKey
        place(at: index)
    }

    /// Takes out every entry and returns them, in no order.
    mutating func removeAll() -> [Entry] {
        let all = entries
        entries = []
        keys = []
        for entry in all { entry.heapIndex = -1 }
        return all
    }

    /// Moves the entry at `index`, whose key may precede its parent's or follow a child's, to
    /// its place.
    private mutating func place(at index: Int) {
        let entry = entries[index]
        let key = keys[index]
        if index > 0 && Entry.precedes(key, keys[(index - 1) / 4]) {
            siftUp(entry, key, from: index)
        } else {
            siftDown(entry, key, from: index)
        }
    }

    /// Puts `entry`, keyed `key`, whose place was `start`, at the first ancestor's place it
    /// does not follow, moving the ancestors it passes one level down.
    private mutating func siftUp(_ entry: Entry, _ key: Entry.Key, from start: Int) {
        let hole = keys.withUnsafeMutableBufferPointer { keys in
            entries.withUnsafeMutableBufferPointer { entries in
                var hole = start
                while hole > 0 {
                    let parent = (hole &- 1) / 4
                    guard Entry.precedes(key, keys[parent]) else { break }
                    Self.move(keys, entries, from: parent, to: hole)
                    hole = parent
                }
                return hole
            }
        }
        put(entry, key, at: hole)
    }

    /// Puts `entry`, keyed `key`, whose place was `start`, below every descendant it follows,
    /// moving the least child it passes one level up each time.
    private mutating func siftDown(_ entry: Entry, _ key: Entry.Key, from start: Int) {
        let hole = keys.withUnsafeMutableBufferPointer { keys in
            entries.withUnsafeMutableBufferPointer { entries in
                var hole = start
                let count = keys.count
                while true {
                    let firstChild = 4 &* hole &+ 1
                    guard firstChild < count else { break }
                    var least = firstChild
                    if firstChild &+ 3 < count {
                        // All four: the lesser of each pair, then of the two.
                        let left = Entry.precedes(keys[firstChild &+ 1], keys[firstChild]) ? firstChild &+ 1 : firstChild
                        let right = Entry.precedes(keys[firstChild &+ 3], keys[firstChild &+ 2]) ? firstChild &+ 3 : firstChild &+ 2
                        least = Entry.precedes(keys[right], keys[left]) ? right : left
                    } else {
                        var child = firstChild &+ 1
                        while child < count {
                            if Entry.precedes(keys[child], keys[least]) { least = child }
                            child &+= 1
                        }
                    }
                    guard Entry.precedes(keys[least], key) else { break }
                    Self.move(keys, entries, from: least, to: hole)
                    hole = least
                }
                return hole
            }
        }
        put(entry, key, at: hole)
    }

    /// Moves the entry and key at `source` to `destination`, telling the entry.
    @inline(__always)
    private static func move(_ keys: UnsafeMutableBufferPointer<Entry.Key>, _ entries: UnsafeMutableBufferPointer<Entry>,
                             from source: Int, to destination: Int) {
        keys[destination] = keys[source]
        entries[destination] = entries[source]
        entries[destination].heapIndex = destination
    }

    private mutating func put(_ entry: Entry, _ key: Entry.Key, at index: Int) {
        entries[index] = entry
        keys[index] = key
        entry.heapIndex = index
    }
}
