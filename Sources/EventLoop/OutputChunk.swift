/// A fixed-size block of outgoing bytes. Connections append into chunks and hand full lists
/// of them to one `uv_write`; the chunks go back to the loop's pool when the write completes,
/// so a steady stream of messages allocates nothing.
final class OutputChunk {
    static let capacity = 16 * 1024
    let storage: UnsafeMutableRawPointer
    // `@exclusivity(unchecked)`: loop thread only, and no access spans a call.
    @exclusivity(unchecked) var count = 0

    init() {
        storage = .allocate(byteCount: Self.capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

    var freeSpace: Int { Self.capacity - count }

    /// Drops the first `count` bytes (written), moving the rest to the front.
    func dropFirst(_ count: Int) {
        storage.copyMemory(from: storage + count, byteCount: self.count - count)
        self.count -= count
    }

    /// Copies as many bytes of `bytes` as fit; returns how many.
    func append(_ bytes: UnsafeRawBufferPointer) -> Int {
        let n = min(bytes.count, freeSpace)
        if n > 0, let base = bytes.baseAddress {
            (storage + count).copyMemory(from: base, byteCount: n)
            count += n
        }
        return n
    }
}

/// The loop's free list of output chunks (loop thread only), bounded so a burst does not pin memory.
final class OutputChunkPool {
    // `@exclusivity(unchecked)`: loop thread only, and no access spans a call.
    @exclusivity(unchecked) private var free: [OutputChunk] = []
    // Writes leave at once when the socket takes them, so few chunks are out at a time.
    private let maxPooled = 32

    func take() -> OutputChunk {
        if let chunk = free.popLast() { return chunk }
        return OutputChunk()
    }

    func give(_ chunk: OutputChunk) {
        chunk.count = 0
        if free.count < maxPooled { free.append(chunk) }
    }
}

/// A queue of chunks in one word: the usual queue, one chunk written at once, then empty,
/// never allocates an array, and an idle connection holds none. A chunk and an array of
/// them share the word's spare bits, where a first chunk and an array beside it took two
/// words of every connection (`EventLoopLayoutTests`).
struct ChunkList: RandomAccessCollection {
    private enum Storage {
        case empty
        case one(OutputChunk)
        /// Two or more, in order.
        case many([OutputChunk])
    }

    private var storage = Storage.empty

    var startIndex: Int { 0 }
    var endIndex: Int {
        switch storage {
        case .empty: return 0
        case .one: return 1
        case .many(let chunks): return chunks.count
        }
    }
    var isEmpty: Bool {
        if case .empty = storage { return true }
        return false
    }

    subscript(position: Int) -> OutputChunk {
        switch storage {
        case .one(let chunk):
            precondition(position == 0, "index out of range")
            return chunk
        case .many(let chunks):
            return chunks[position]
        case .empty:
            preconditionFailure("index out of range")
        }
    }

    /// The sole chunk's bytes when the list holds exactly one, lent to `body` (no retain of
    /// the chunk): the common write, one message's frame.
    func withSoleChunkBytes<Result>(_ body: (UnsafeMutableRawPointer, Int) -> Result) -> Result? {
        guard case .one(let chunk) = storage else { return nil }
        return body(chunk.storage, chunk.count)
    }

    var last: OutputChunk? {
        switch storage {
        case .empty: return nil
        case .one(let chunk): return chunk
        case .many(let chunks): return chunks.last
        }
    }

    mutating func append(_ chunk: OutputChunk) {
        switch storage {
        case .empty:
            storage = .one(chunk)
        case .one(let first):
            storage = .many([first, chunk])
        case .many(var chunks):
            storage = .empty  // the array uniquely referenced while it grows
            chunks.append(chunk)
            storage = .many(chunks)
        }
    }

    /// Copies `bytes` to the end, filling the last chunk and then new ones from `pool`.
    mutating func append(_ bytes: UnsafeRawBufferPointer, pool: OutputChunkPool) {
        var rest = bytes
        while !rest.isEmpty {
            if last.map({ $0.freeSpace == 0 }) ?? true { append(pool.take()) }
            let taken = self[count - 1].append(rest)
            rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
        }
    }

    @discardableResult
    mutating func removeFirst() -> OutputChunk {
        take(fromFront: true)
    }

    mutating func removeFirst(_ count: Int) {
        guard count > 0 else { return }
        guard case .many(var chunks) = storage, count < chunks.count else {
            removeAll()
            return
        }
        storage = .empty  // the array uniquely referenced while it shrinks
        chunks.removeFirst(count)
        storage = Self.storage(of: chunks)
    }

    @discardableResult
    mutating func removeLast() -> OutputChunk {
        take(fromFront: false)
    }

    /// Removes and returns the first or the last chunk.
    private mutating func take(fromFront: Bool) -> OutputChunk {
        switch storage {
        case .one(let chunk):
            storage = .empty
            return chunk
        case .many(var chunks):
            storage = .empty
            let taken = fromFront ? chunks.removeFirst() : chunks.removeLast()
            storage = Self.storage(of: chunks)
            return taken
        case .empty:
            preconditionFailure("removing from an empty list")
        }
    }

    /// What holds `chunks`, one or more.
    private static func storage(of chunks: [OutputChunk]) -> Storage {
        chunks.count == 1 ? .one(chunks[0]) : .many(chunks)
    }

    mutating func removeAll() {
        storage = .empty
    }
}
