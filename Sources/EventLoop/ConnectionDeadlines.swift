import CLibUV

/// The deadlines of a loop's connections on one libuv timer.
///
/// Each `TCPConnection` has one deadline slot (a head timeout, a heartbeat, a close timeout, a
/// linger: never two at once). The slots of a loop live in this min-heap by due time, and the
/// loop's single `uv_timer_t` is armed for the earliest, so an idle connection pays a heap
/// entry (8 bytes) instead of a timer handle of its own. Loop thread only.
final class ConnectionDeadlines {
    /// Connections with an armed deadline, a min-heap on `deadlineDue`; each connection
    /// knows its index. Unretained: a connection leaves the heap before it closes.
    /// The vars go unchecked for exclusivity: loop thread only, and never borrowed across a
    /// call that could reach them again (three dynamic checks per connection less).
    @exclusivity(unchecked) private var heap: [Unmanaged<TCPConnection>] = []
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

    /// Arms (or moves) `connection`'s deadline to the loop time `due` (milliseconds).
    func schedule(_ connection: TCPConnection, due: UInt64) {
        guard !isClosed else { return }
        connection.deadlineDue = due
        if connection.deadlineIndex < 0 {
            connection.deadlineIndex = heap.count
            heap.append(.passUnretained(connection))
            siftUp(heap.count - 1)
        } else {
            let index = connection.deadlineIndex
            siftUp(index)
            siftDown(connection.deadlineIndex)
        }
        if due < armedFor { arm() }
    }

    /// Disarms `connection`'s deadline, if armed. The timer may still fire for it; it then
    /// finds nothing due and re-arms for the next.
    func remove(_ connection: TCPConnection) {
        let index = connection.deadlineIndex
        guard index >= 0 else { return }
        connection.deadlineIndex = -1
        let last = heap.removeLast()
        // Lets a large storage go once every connection is gone; a small one stays, as a loop
        // whose connections come and go one at a time would free and allocate it per connection.
        if heap.isEmpty && heap.capacity > 64 { heap = [] }
        guard index < heap.count else { return }
        heap[index] = last
        last.takeUnretainedValue().deadlineIndex = index
        siftUp(index)
        siftDown(last.takeUnretainedValue().deadlineIndex)
    }

    /// Closes the timer (the loop is stopping); later deadlines are ignored.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        for entry in heap { entry.takeUnretainedValue().deadlineIndex = -1 }
        heap.removeAll()
        timer.close()
    }

    fileprivate func fire() {
        let now = uv_now(uvLoop)
        armedFor = .max
        // Fires what is due; a connection that re-arms for later goes back into the heap.
        while let first = heap.first?.takeUnretainedValue(), first.deadlineDue <= now {
            remove(first)
            first.deadlinePassed()
        }
        if !heap.isEmpty { arm() }
    }

    private func arm() {
        guard !isClosed, let first = heap.first?.takeUnretainedValue() else { return }
        let now = uv_now(uvLoop)
        armedFor = first.deadlineDue
        timer.start(after: first.deadlineDue > now ? first.deadlineDue - now : 0, deadlinesDidFire)
    }

    private func due(_ index: Int) -> UInt64 { heap[index].takeUnretainedValue().deadlineDue }

    private func swapAt(_ a: Int, _ b: Int) {
        heap.swapAt(a, b)
        heap[a].takeUnretainedValue().deadlineIndex = a
        heap[b].takeUnretainedValue().deadlineIndex = b
    }

    private func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard due(child) < due(parent) else { return }
            swapAt(child, parent)
            child = parent
        }
    }

    private func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            let smaller = right < heap.count && due(right) < due(left) ? right : left
            guard due(smaller) < due(parent) else { return }
            swapAt(parent, smaller)
            parent = smaller
        }
    }
}

private func deadlinesDidFire(_ timer: UnsafeMutablePointer<uv_timer_t>?) {
    LoopOwnTimer.owner(of: timer, as: ConnectionDeadlines.self)?.fire()
}
