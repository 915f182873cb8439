import CLibUV
#if canImport(Glibc)
import Glibc
#endif

// The cork: while a connection answers a read, what it writes gathers in the loop's
// `CorkBuffer` and leaves in one system call at the end of the read.
extension TCPConnection {
    /// Queues the first `headerCount` (at most 8) bytes of `header`, little-endian (its lowest
    /// byte first), followed by `payload`: a frame, as two `write`s would, but while answering
    /// a read copied once into the loop's cork buffer.
    public func write(header: UInt64, count headerCount: Int, payload: UnsafeRawBufferPointer) {
        precondition(headerCount <= 8, "a header of at most 8 bytes")
        guard outputState == .open, !isClosing else { return }
        if output.cork == .loopBuffer {
            if loop.cork.pointee.append(header: header, count: headerCount, payload: payload) {
                return outputGrew(output.count(headerCount + payload.count))
            }
            spillCork()
        }
        writeSeparately(header: header, count: headerCount, payload: payload)
    }

    /// `write(header:count:payload:)` as two writes (kept apart, so the common path above
    /// takes no address of a local).
    @inline(never)
    private func writeSeparately(header: UInt64, count headerCount: Int, payload: UnsafeRawBufferPointer) {
        let total = headerCount + payload.count
        guard total > 128 else {
            // A small frame is joined on the stack first: one piece to queue or stage, not two.
            // A fixed buffer of 16 words, as a closure that allocates on the stack would retain
            // `self` around it.
            var frame: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
                = (header.littleEndian, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &frame) { frame in
                if let source = payload.baseAddress {
                    (frame.baseAddress! + headerCount).copyMemory(from: source, byteCount: payload.count)
                }
                write(UnsafeRawBufferPointer(rebasing: frame[0..<total]))
            }
            return
        }
        withUnsafeBytes(of: header.littleEndian) { write(UnsafeRawBufferPointer(rebasing: $0[0..<headerCount])) }
        write(payload)
    }


    /// Moves what this connection gathered in the loop's cork buffer where `write` would have
    /// put it (the queue, or the filter's staging), and the rest of this read's writes after it.
    func spillCork() {
        output.cork = .queue
        let cork = loop.cork
        if let staging {
            staging.stage(cork.pointee.bytes, pool: loop.chunkPool)
        } else {
            output.append(cork.pointee.bytes, pool: loop.chunkPool)
        }
        cork.pointee.reset()
    }

    /// At the end of a read: sends what gathered in the loop's cork buffer straight from it
    /// (nothing was queued, staged or in flight, so the order holds). Plain, in one system call
    /// when the socket takes it all, the rest waiting in the queue for `flush()`; with a filter,
    /// encoded into the queue at once.
    func sendCorked() {
        let cork = loop.cork
        let corked = cork.pointee.bytes
        cork.pointee.reset()
        guard !isClosing else { return output.uncount(corked.count) }  // dropped, as the queue is at close
        if let staging {
            output.uncount(corked.count)
            do {
                try staging.filter.send(corked)
            } catch {
                return close()
            }
            return takeFilterOutput()
        }
        let written = writeDirectly(corked)
        output.uncount(written)
        if written < corked.count {
            output.append(UnsafeRawBufferPointer(rebasing: corked[written...]), pool: loop.chunkPool)
        }
        if output.resumeIfDrained() { moveReading(.outputChanged) }
    }
}
