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

/// A queue of chunks that keeps its first one inline: the usual queue, one chunk written at
/// once, then empty, never allocates an array, and an idle connection holds none.
struct ChunkList: RandomAccessCollection {
    private var head: OutputChunk?
    private var rest: [OutputChunk] = []

    var startIndex: Int { 0 }
    var endIndex: Int { head == nil ? 0 : 1 + rest.count }
    var isEmpty: Bool { head == nil }

    subscript(position: Int) -> OutputChunk {
        position == 0 ? head.unsafelyUnwrapped : rest[position - 1]
    }

    var last: OutputChunk? { rest.last ?? head }

    mutating func append(_ chunk: OutputChunk) {
        if head == nil { head = chunk } else { rest.append(chunk) }
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
        let first = head.unsafelyUnwrapped
        if rest.isEmpty {
            head = nil
        } else {
            head = rest.removeFirst()
            if rest.isEmpty { rest = [] }  // emptied, the array lets its storage go
        }
        return first
    }

    mutating func removeFirst(_ count: Int) {
        guard count > 0 else { return }
        guard count <= rest.count else {
            removeAll()
            return
        }
        head = rest[count - 1]
        rest.removeFirst(count)
        if rest.isEmpty { rest = [] }
    }

    @discardableResult
    mutating func removeLast() -> OutputChunk {
        if rest.isEmpty {
            defer { head = nil }
            return head.unsafelyUnwrapped
        }
        let last = rest.removeLast()
        if rest.isEmpty { rest = [] }
        return last
    }

    mutating func removeAll() {
        head = nil
        rest = []
    }
}
