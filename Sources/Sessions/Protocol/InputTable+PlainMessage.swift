/// The two message shapes clients send nearly always, `{"input":"<name>","value":"<text>"}`
/// and `{"input":"<name>"}`, with no whitespace and no escapes: matched byte by byte against
/// each input's head (`PlainHeads`) without a `ClientMessage` or a `String` for the name.
///
/// It only ever answers what the full reader and `resolve` would: anything else (other
/// spacing or key order, an escape, a control character, a name not declared, a value of
/// the wrong kind, an error of any kind) gives `nil` and goes the full way, which also
/// words the refusal. The `client-message` fuzz target checks that both ways agree.
extension InputTable {
    /// The event of `bytes` when it has one of the plain shapes, else nil. A name never
    /// holds a quote (`PlainHeads`), so at most one input's head begins a message.
    func plainEvent(_ bytes: UnsafeBufferPointer<UInt8>) -> Event? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        return plainHeads.withHead(startingWith: base, count) { index, head, isTap in
            if isTap { return head == count ? Event(index: index, payload: .tap) : nil }
            // A text input's value: everything up to the closing `"}`.
            guard count - head >= 2, base[count - 2] == 0x22, base[count - 1] == 0x7D,  // "}
                  Self.isPlainString(base, from: head, to: count - 2)
            else { return nil }
            let value = Self.smallASCII(base, from: head, to: count - 2)
                ?? Self.text(UnsafeRawBufferPointer(start: base + head, count: count - 2 - head))
            return Event(index: index, payload: .text(value))
        }
    }

    /// Whether the bytes from `start` to `end` hold no quote, no backslash and no control
    /// character: eight at a time, the last word ending at `end` (it may overlap the one
    /// before, or the head: `start` is past the head, which is longer than a word) with the
    /// bytes already seen shifted out.
    private static func isPlainString(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Bool {
        var index = start
        while end - index > 8 {
            if endingBytes(in: word(base + index)) != 0 { return false }
            index += 8
        }
        let left = end - index
        guard left > 0 else { return true }
        return endingBytes(in: word(base + end - 8)) >> (8 * UInt64(8 - left)) == 0
    }

    /// The eight bytes at `at`, the first in the lowest bits.
    @inline(__always)
    private static func word(_ at: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(at).loadUnaligned(as: UInt64.self))
    }

    /// The top bit of each byte of `word` that is a quote, a backslash or below 0x20. Exact
    /// per byte: each test adds within a byte's low seven bits, so no carry reaches the next.
    @inline(__always)
    private static func endingBytes(in word: UInt64) -> UInt64 {
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        func zeroBytes(_ value: UInt64) -> UInt64 { ~((value & lows &+ lows) | value | lows) }
        return zeroBytes(word ^ 0x2222_2222_2222_2222) | zeroBytes(word ^ 0x5C5C_5C5C_5C5C_5C5C)
            | zeroBytes(word & 0xE0E0_E0E0_E0E0_E0E0)
    }

    /// The value from `start` to `end` as a small `String` made straight from its bytes, when it
    /// is ASCII and at most 15 bytes long (nearly every value): two loads and a mask, where the
    /// string's initializer cost about 100 instructions a message. Nil otherwise (`text(_:)`).
    /// Both loads stay inside the message: `start` is past the head (longer than a word) and
    /// the last word ends at `end`. `PlainMessageTests` checks the bits match the initializer's.
    @inline(__always)
    private static func smallASCII(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> String? {
        #if arch(x86_64) || arch(arm64)
        // A small string on these 64-bit targets (the standard library's ABI): up to 15 UTF-8
        // bytes in order across its two words, the top byte the count with 0xE0 (small, ASCII).
        assert(start >= 8, "the value starts past a head of more than a word")
        let count = end - start
        guard count <= 15 else { return nil }
        guard count > 0 else { return "" }
        let last = word(base + end - 8)
        let (low, high) = count <= 8
            ? (last &>> UInt64(8 * (8 - count)), UInt64(0))
            : (word(base + start), last &>> UInt64(8 * (16 - count)))
        guard (low | high) & 0x8080_8080_8080_8080 == 0 else { return nil }
        // Moved out of a temporary rather than bit-cast: a bit-cast value is copied into the
        // result, a retain call that a small string does not need.
        return withUnsafeTemporaryAllocation(of: String.self, capacity: 1) { place in
            let words = UnsafeMutableRawPointer(place.baseAddress!)
            words.storeBytes(of: low, as: UInt64.self)
            words.storeBytes(of: high | UInt64(0xE0 | count) << 56, toByteOffset: 8, as: UInt64.self)
            return place.baseAddress!.move()
        }
        #else
        return nil
        #endif
    }

    /// The value's `String`, as `String(decoding:as:)` makes it: up to 15 ASCII bytes are
    /// copied into a small string and checked with one mask, where decoding scanned and
    /// copied them byte by byte (about 40 instructions a message less).
    private static func text(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { target in
            UnsafeMutableRawBufferPointer(target).copyMemory(from: bytes)
            return bytes.count
        }
    }
}

/// Each input's head in a plain message: `{"input":"<name>","value":"` for a text input,
/// the whole `{"input":"<name>"}` for a tap, all in one block. A value input has none, nor
/// does an input whose name holds a quote, a backslash or a control character (in JSON
/// those are escaped, so such a name never appears plain).
struct PlainHeads: @unchecked Sendable {  // the bytes are written in init only: read-only memory shared by the loops
    private struct Head {
        let index: Int
        let start: Int
        let count: Int
        let isTap: Bool
    }

    private let bytes: FixedBytes
    private let heads: [Head]

    init(_ inputs: [(name: String, kind: InputKind)]) {
        var bytes: [UInt8] = []
        var heads: [Head] = []
        for (index, input) in inputs.enumerated() where input.kind != .value {
            guard !input.name.utf8.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }) else { continue }
            let head = #"{"input":""# + input.name + (input.kind == .tap ? #""}"# : #"","value":""#)
            heads.append(Head(index: index, start: bytes.count, count: head.utf8.count, isTap: input.kind == .tap))
            bytes += head.utf8
        }
        self.bytes = FixedBytes(bytes)
        self.heads = heads
    }

    /// `body`'s answer for the input whose head the `count` bytes at `message` start with
    /// (its index, the head's length, whether it is a tap), or nil when none does.
    @inline(__always)
    func withHead<Result>(startingWith message: UnsafePointer<UInt8>, _ count: Int,
                          _ body: (_ index: Int, _ headCount: Int, _ isTap: Bool) -> Result?) -> Result? {
        guard let block = bytes.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        return heads.withUnsafeBufferPointer { heads in
            for head in heads where head.count <= count && bytesEqual(message, block + head.start, head.count) {
                return body(head.index, head.count, head.isTap)
            }
            return nil
        }
    }
}
