/// The bytes of a recording not yet written to its file: lines are written straight into
/// memory of its own, each piece a copy or a store, with room made once per line
/// (`reserve`), so recording an event makes no `String` or array and checks no capacity
/// per piece.
///
/// Not copyable: it owns its memory, freed when it goes.
struct RecordingBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    /// The bytes it holds before it must grow.
    private(set) var capacity: Int
    /// The bytes held.
    private(set) var count = 0

    /// An empty buffer with room for `capacity` bytes; it grows when a line needs more.
    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes held, valid during the call.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Forgets the bytes from `count` on (a line taken back, or all once written).
    mutating func removeFrom(_ count: Int) {
        self.count = min(count, self.count)
    }

    /// Makes room for `bytes` more; every `put` after it until that many are written is unchecked.
    @inline(__always)
    mutating func reserve(_ bytes: Int) {
        if count &+ bytes > capacity { grow(toHold: bytes) }
    }

    @inline(never)
    private mutating func grow(toHold bytes: Int) {
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: max(capacity * 2, count + bytes))
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = max(capacity * 2, count + bytes)
    }

    /// Room `put(jsonString:)` may need for `bytes` bytes of text: each escaped as `\u00XX`, and the quotes.
    static func roomForJSONString(_ bytes: Int) -> Int { bytes * 6 + 2 }
    /// Room `put(decimal:)` may need.
    static let roomForDecimal = 20

    // The puts below write into room already reserved; inlined, so that a constant's copy
    // is a move or two.

    @inline(__always)
    mutating func put(_ byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    @inline(__always)
    mutating func put(_ bytes: UnsafeRawBufferPointer) {
        Self.copy(bytes, to: UnsafeMutableRawPointer(base + count))
        count &+= bytes.count
    }

    /// Copies `bytes` to `target`: 8 to 64 bytes (most lines' rest) in two or four 16-byte
    /// moves, or two words, the last ones overlapping: no loop and no call.
    @inline(__always)
    private static func copy(_ bytes: UnsafeRawBufferPointer, to target: UnsafeMutableRawPointer) {
        guard let source = bytes.baseAddress else { return }
        let length = bytes.count
        func copy<Chunk: BitwiseCopyable>(_: Chunk.Type, at offset: Int) {
            (target + offset).storeBytes(of: (source + offset).loadUnaligned(as: Chunk.self), as: Chunk.self)
        }
        if length >= 16 && length <= 64 {
            copy(SIMD16<UInt8>.self, at: 0)
            copy(SIMD16<UInt8>.self, at: length &- 16)
            if length > 32 {  // [0, 32) and [length - 32, length) cover the rest
                copy(SIMD16<UInt8>.self, at: 16)
                copy(SIMD16<UInt8>.self, at: length &- 32)
            }
        } else if length >= 8 && length < 16 {
            copy(UInt64.self, at: 0)
            copy(UInt64.self, at: length &- 8)
        } else if length > 0 {
            target.copyMemory(from: source, byteCount: length)
        }
    }

    @inline(__always)
    mutating func put(_ text: StaticString) {
        put(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func put(text: String) {
        var text = text
        text.withUTF8 { put(UnsafeRawBufferPointer($0)) }
    }

    /// `value` in decimal digits: times below 100 s (eight digits, a recording's usual) in one
    /// word, inlined; longer ones by a call.
    @inline(__always)
    mutating func put(decimal value: UInt64) {
        if value < 100_000_000 {
            count &+= Self.writeDecimal(UInt32(truncatingIfNeeded: value), at: UnsafeMutableRawPointer(base + count))
        } else {
            putLongDecimal(value)
        }
    }

    @inline(never)
    private mutating func putLongDecimal(_ value: UInt64) {
        let high = value / 100_000_000
        let low = UInt32(truncatingIfNeeded: value % 100_000_000)
        if high < 100_000_000 {
            put(decimal: high)
        } else {
            putLongDecimal(high)
        }
        UnsafeMutableRawPointer(base + count).storeBytes(of: Self.eightDigits(low) | Self.asciiZeros, as: UInt64.self)
        count &+= 8
    }

    /// The eight decimal digits of `value` (below 10^8, leading zeros included), one in each
    /// byte, the first in the lowest: the value split in two lanes of four digits, each lane in
    /// two of two, each of those in two of one, all lanes at once (a multiplication by a
    /// reciprocal divides every lane: no lane's product reaches the next).
    @inline(__always)
    static func eightDigits(_ value: UInt32) -> UInt64 {
        var lanes = UInt64(value / 10_000) | UInt64(value % 10_000) << 32
        let hundreds = (lanes &* 10_486) >> 20 & 0x0000_007F_0000_007F  // ⌊x/100⌋ for x < 10,000
        lanes = hundreds | (lanes &- hundreds &* 100) << 16
        let tens = (lanes &* 103) >> 10 & 0x000F_000F_000F_000F  // ⌊x/10⌋ for x < 100
        return tens | (lanes &- tens &* 10) << 8
    }

    private static let asciiZeros: UInt64 = 0x3030_3030_3030_3030

    /// Writes `value` (below 10^8) in its digits at `target`, as one 8-byte store (the bytes
    /// after the digits are room the line writes next); returns how many digits.
    @inline(__always)
    private static func writeDecimal(_ value: UInt32, at target: UnsafeMutableRawPointer) -> Int {
        let digits = eightDigits(value)
        let leadingZeros = digits == 0 ? 7 : digits.trailingZeroBitCount &>> 3
        target.storeBytes(of: (digits | asciiZeros) &>> (UInt64(leadingZeros) &<< 3), as: UInt64.self)
        return 8 &- leadingZeros
    }

    /// `{"t":<time>,` and `rest`, then a newline: the line of a message that is already it but
    /// for the time (`rest` is the message after its `{`). Written through a local cursor, the
    /// count set once: the most frequent line, the one path that must stay short.
    @inline(__always)
    mutating func putTimedLine(_ time: UInt64, continuing rest: UnsafeRawBufferPointer) {
        guard time < 100_000_000 else {  // past 100 s: digits by the long way
            put("{\"t\":")
            put(decimal: time)
            put(UInt8(ascii: ","))
            put(rest)
            put(UInt8(ascii: "\n"))
            return
        }
        let start = UnsafeMutableRawPointer(base + count)
        start.storeBytes(of: Self.timeKey, as: UInt32.self)  // {"t
        (start + 4).storeBytes(of: UInt8(ascii: ":"), as: UInt8.self)
        let digits = Self.writeDecimal(UInt32(truncatingIfNeeded: time), at: start + 5)
        let afterDigits = start + 5 + digits
        afterDigits.storeBytes(of: UInt8(ascii: ","), as: UInt8.self)
        let restStart = afterDigits + 1
        Self.copy(rest, to: restStart)
        (restStart + rest.count).storeBytes(of: UInt8(ascii: "\n"), as: UInt8.self)
        count &+= 5 &+ digits &+ 1 &+ rest.count &+ 1
    }

    /// `message` and a newline: an output's line at the time of the line before it.
    @inline(__always)
    mutating func putLine(_ message: UnsafeRawBufferPointer) {
        let start = UnsafeMutableRawPointer(base + count)
        Self.copy(message, to: start)
        (start + message.count).storeBytes(of: UInt8(ascii: "\n"), as: UInt8.self)
        count &+= message.count &+ 1
    }

    /// `{"t` as one little-endian word.
    private static let timeKey = UInt32(0x7B) | UInt32(0x22) << 8 | UInt32(0x74) << 16 | UInt32(0x22) << 24


    /// `text` (UTF-8) as a JSON string literal, escaped as `JSONEscape` says (as
    /// `String.appendJSONString` writes it).
    mutating func put(jsonString text: UnsafeRawBufferPointer) {
        put(UInt8(ascii: "\""))
        var plainStart = 0
        var index = 0
        while index < text.count {
            let byte = text[index]
            index += 1
            guard JSONEscape.isNeeded(byte) else { continue }
            put(UnsafeRawBufferPointer(rebasing: text[plainStart..<(index - 1)]))
            plainStart = index
            JSONEscape.escape(byte) { put($0) }
        }
        put(UnsafeRawBufferPointer(rebasing: text[plainStart...]))
        put(UInt8(ascii: "\""))
    }
}
