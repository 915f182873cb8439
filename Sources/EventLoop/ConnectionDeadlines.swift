import CLibUV

/// The deadlines of a loop's connections on one libuv timer.
///
/// Each `TCPConnection` has one deadline slot (a head timeout, a heartbeat, a close timeout, a
/// linger: never two at once). The slots of a loop live in this min-heap by due time, and the
/// loop's single `uv_timer_t` is armed for the earliest, so an idle connection pays a heap
/// entry (8 bytes, and 4 for its key) instead of a timer handle of its own. Loop thread only.
final class ConnectionDeadlines {
    /// Connections with an armed deadline, a min-heap on the low 32 bits of their due loop
    /// time (ms); each connection knows its index. Unretained: a connection leaves the heap
    /// before it closes.
    /// The vars go unchecked for exclusivity: loop thread only, and never borrowed across a
    /// call that could reach them again (three dynamic checks per connection less).
    @exclusivity(unchecked) private var heap = IndexedMinHeap<Unmanaged<TCPConnection>>()
    /// The loop's timer; made with the loop, closed by `stop()`.
    private let timer: LoopOwnTimer
    @exclusivity(unchecked) private var isClosed = false
    /// The due time the timer is armed for (`.max` when stopped).
    @exclusivity(unchecked) private var armedFor = UInt64.max
    private let uvLoop: UnsafeMutablePointer<uv_loop_t>

    init(loop: UnsafeMutablePointer<uv_loop_t>) {
        uvLoop = loop
        timer = LoopOwnTimer(loop: loop)
        timer.setOwner(self)
    }

    /// The furthest ahead a deadline is kept: due times are stored in 32 bits and compared
    /// modulo 2^32, which orders them while all lie within 2^31 ms (24 days) of each other.
    static let longestDelay: UInt64 = 1 << 30

    /// Arms (or moves) `connection`'s deadline to the loop time `due` (milliseconds), at
    /// most `longestDelay` from now.
    func schedule(_ connection: TCPConnection, due: UInt64) {
        guard !isClosed else { return }
        let due = min(due, uv_now(uvLoop) + Self.longestDelay)
        let key = UInt32(truncatingIfNeeded: due)
        if connection.deadlineIndex < 0 {
            heap.insert(.passUnretained(connection), key: key)
        } else {
            heap.update(at: connection.deadlineIndex, key: key)
        }
        if due < armedFor { arm() }
    }

    /// The loop time (ms) `connection`'s deadline is due at; nil when none is armed.
    func due(of connection: TCPConnection) -> UInt64? {
        let index = connection.deadlineIndex
        guard index >= 0 else { return nil }
        return Self.loopTime(of: heap.key(at: index), near: uv_now(uvLoop))
    }

    /// Disarms `connection`'s deadline, if armed. The timer may still fire for it; it then
    /// finds nothing due and re-arms for the next.
    func remove(_ connection: TCPConnection) {
        let index = connection.deadlineIndex
        guard index >= 0 else { return }
        heap.remove(at: index)
    }

    /// Closes the timer (the loop is stopping); later deadlines are ignored.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = heap.removeAll()
        timer.close()
    }

    fileprivate func fire() {
        let now = uv_now(uvLoop)
        armedFor = .max
        // Fires what is due; a connection that re-arms for later goes back into the heap.
        while let key = heap.firstKey, Self.loopTime(of: key, near: now) <= now, let first = heap.first?.takeUnretainedValue() {
            remove(first)
            first.deadlinePassed()
        }
        if !heap.isEmpty { arm() }
    }

    private func arm() {
        guard !isClosed, let key = heap.firstKey else { return }
        let now = uv_now(uvLoop)
        armedFor = Self.loopTime(of: key, near: now)
        timer.start(after: armedFor > now ? armedFor - now : 0, deadlinesDidFire)
    }

    /// The loop time whose low 32 bits are `due`, the one nearest `now`.
    static func loopTime(of due: UInt32, near now: UInt64) -> UInt64 {
        let ahead = Int64(Int32(bitPattern: due &- UInt32(truncatingIfNeeded: now)))
        return ahead < 0 && UInt64(-ahead) > now ? 0 : UInt64(bitPattern: Int64(bitPattern: now) &+ ahead)
    }
}

private func deadlinesDidFire(_ timer: UnsafeMutablePointer<uv_timer_t>?) {
    LoopOwnTimer.owner(of: timer, as: ConnectionDeadlines.self)?.fire()
}

extension Unmanaged: IndexedHeapEntry where Instance == TCPConnection {
    var heapIndex: Int {
        get { takeUnretainedValue().deadlineIndex }
        nonmutating set { takeUnretainedValue().deadlineIndex = newValue }
    }

    static func precedes(_ due: UInt32, _ other: UInt32) -> Bool {
        // Modulo 2^32: the due times lie within 2^31 of each other (`longestDelay`).
        Int32(bitPattern: due &- other) < 0
    }
}
