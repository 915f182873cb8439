import CLibUV
#if canImport(Glibc)
import Glibc
#endif

// The stream filter (TLS): what arrives is decoded before the delegate sees it, and what is
// written is staged (`FilterStaging`) and encoded at `flush()`.
extension TCPConnection {
    /// Decodes what arrives and encodes what is written (TLS); set before `startReading()`.
    public var filter: (any TCPStreamFilter)? {
        get { staging?.filter }
        set {
            if output.cork == .loopBuffer { spillCork() }  // later writes go through the filter
            let staged = staging?.takeStaged() ?? ChunkList()
            staging = newValue.map { FilterStaging($0, staged: staged) }
            if staging == nil { output.uncount(FilterStaging.give(staged, to: loop.chunkPool)) }
        }
    }

    /// Decodes `bytes` through `filter` and hands each decoded piece to the delegate.
    func receive(_ bytes: UnsafeRawBufferPointer, through filter: any TCPStreamFilter) {
        do {
            try filter.receive(bytes, scratch: loop.filterBuffer) { decoded in
                guard outputState == .open, !isClosing else { return false }
                // Read the delegate anew for each piece: an upgrade replaces it mid-batch.
                let delegate = self.delegate
                delegate?.connection(self, didRead: decoded)
                return outputState == .open && !isClosing
            }
        } catch {
            abandonOutput()
            return
        }
        takeFilterOutput()
    }

    /// Runs the staged bytes through the filter into the write queue.
    func encodeStaged() {
        guard let staging else { return }
        let (count, failed) = staging.encode(pool: loop.chunkPool)
        output.uncount(count)
        if failed { return close() }
        takeFilterOutput()
    }

    /// Moves what the filter produced (records, handshake messages, alerts) into the write queue.
    func takeFilterOutput() {
        // Most reads produce nothing to send (the answer is encoded at the flush): no chunk then.
        guard let filter = staging?.filter, filter.hasOutput, !isClosing, outputState != .shutdownSent else { return }
        // The filter runs with no access to `output` open, so the queue's accesses stay ones the
        // compiler checks statically (a call into unknown code under one costs every access a runtime check).
        var produced = 0
        while true {
            let chunk = output.lastChunkWithSpace(pool: loop.chunkPool)
            let space = chunk.freeSpace
            let count = filter.readOutput(into: UnsafeMutableRawBufferPointer(start: chunk.storage + chunk.count, count: space))
            chunk.count += count
            produced += count
            if count < space { break }
        }
        output.dropEmptyLastChunk(pool: loop.chunkPool)
        outputGrew(output.count(produced))
    }

    /// The filter failed: send what it still produced (an alert), then FIN, then close.
    func abandonOutput() {
        if output.cork == .loopBuffer {
            output.cork = .queue
            output.uncount(loop.cork.pointee.count)
            loop.cork.pointee.reset()
        }
        if let staging { output.uncount(staging.drop(pool: loop.chunkPool)) }
        takeFilterOutput()
        guard outputState == .open, !isClosing else { return }
        outputState = .finishing
        flush()
    }
}
