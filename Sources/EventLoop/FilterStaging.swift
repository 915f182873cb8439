/// The TLS staging of a connection: its filter and the bytes the delegate wrote since the last
/// flush, which are encoded together then, so the writes of one turn become as few records as
/// possible. Allocated only for a connection that has a filter. Loop thread only.
final class FilterStaging {
    let filter: any TCPStreamFilter
    // `@exclusivity(unchecked)`: loop thread only; `encode` iterates a copy while the filter
    // runs, and the filter cannot reach its staging.
    @exclusivity(unchecked) private(set) var staged: ChunkList

    init(_ filter: any TCPStreamFilter, staged: ChunkList = ChunkList()) {
        self.filter = filter
        self.staged = staged
    }

    var isEmpty: Bool { staged.isEmpty }

    /// Copies `bytes` to be encoded at the next flush.
    func stage(_ bytes: UnsafeRawBufferPointer, pool: OutputChunkPool) {
        staged.append(bytes, pool: pool)
    }

    /// Runs the staged bytes through the filter (its output waits there for
    /// `WriteQueue.appendOutput`) and gives their chunks back; after a failure the rest is
    /// dropped. Returns how many staged bytes left and whether the filter failed.
    func encode(pool: OutputChunkPool) -> (count: Int, failed: Bool) {
        var count = 0
        var failed = false
        for chunk in staged {
            count += chunk.count
            if !failed {
                do {
                    try filter.send(UnsafeRawBufferPointer(start: chunk.storage, count: chunk.count))
                } catch {
                    failed = true
                }
            }
            pool.give(chunk)
        }
        staged.removeAll()
        return (count, failed)
    }

    /// Gives the staged chunks back unsent; returns how many bytes they held.
    func drop(pool: OutputChunkPool) -> Int {
        FilterStaging.give(takeStaged(), to: pool)
    }

    /// Hands the staged chunks over (to a new filter's staging), leaving none here.
    func takeStaged() -> ChunkList {
        let chunks = staged
        staged.removeAll()
        return chunks
    }

    /// Gives `chunks` back to the pool; returns how many bytes they held.
    static func give(_ chunks: ChunkList, to pool: OutputChunkPool) -> Int {
        var count = 0
        for chunk in chunks {
            count += chunk.count
            pool.give(chunk)
        }
        return count
    }
}
