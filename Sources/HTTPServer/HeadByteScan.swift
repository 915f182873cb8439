/// Scans of a request head's bytes sixteen at a time, through Swift's SIMD types (SSE2 on
/// x86-64, NEON on arm64): a head's lines are 20 to 50 bytes, so a line takes one or two
/// steps where a byte loop takes dozens. Each comparison is between two vectors: the
/// overloads that take a scalar compile to a loop over the lanes.
enum HeadByteScan {
    /// How many of the 16 bytes at `pointer` come before the first control byte (below
    /// 0x20) or DEL: 16 when there is none.
    @inline(__always)
    static func ordinaryByteCount(at pointer: UnsafeRawPointer) -> Int {
        let bytes = pointer.loadUnaligned(as: SIMD16<UInt8>.self)
        return firstTrueLane((bytes .< SIMD16(repeating: 0x20)) .| (bytes .== SIMD16(repeating: 0x7F)))
    }

    /// The index of the first `target` in `bytes[start..<end]`, or nil. Reads 16 bytes at a
    /// time while they lie inside `bytes`, which may run past `end`.
    @inline(__always)
    static func firstIndex(of target: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        var index = start
        let targets = SIMD16<UInt8>(repeating: target)
        if let base = bytes.baseAddress {
            while index < end, index + 16 <= bytes.count {
                let lane = firstTrueLane(UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self) .== targets)
                if lane < 16 { return index + lane < end ? index + lane : nil }
                index += 16
            }
        }
        while index < end {
            if bytes[index] == target { return index }
            index += 1
        }
        return nil
    }

    /// The first lane of `mask` that is true, 16 when none is: each lane is a byte of all
    /// ones or all zeros, read as two words in memory order.
    @inline(__always)
    private static func firstTrueLane(_ mask: SIMDMask<SIMD16<Int8>>) -> Int {
        let words = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        let low = UInt64(littleEndian: words[0])
        if low != 0 { return low.trailingZeroBitCount / 8 }
        return 8 + UInt64(littleEndian: words[1]).trailingZeroBitCount / 8
    }
}
