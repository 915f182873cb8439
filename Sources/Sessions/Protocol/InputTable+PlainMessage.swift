/// The two message shapes clients send nearly always, `{"input":"<name>","value":"<text>"}`
/// and `{"input":"<name>"}`, with no whitespace and no escapes: matched byte by byte and
/// resolved against the inputs without a `ClientMessage` or a `String` for the name.
///
/// It only ever answers what the full reader and `resolve` would: anything else (other
/// spacing or key order, an escape, a control character, a name not declared, a value of
/// the wrong kind, an error of any kind) gives `nil` and goes the full way, which also
/// words the refusal. The `client-message` fuzz target checks that both ways agree.
extension InputTable {
    /// `{"input":"`
    private static let inputPrefix: StaticString = #"{"input":""#
    /// `","value":"`, after the name
    private static let valueKey: StaticString = #"","value":""#

    /// The event of `bytes` when it has one of the plain shapes, else nil.
    func plainEvent(_ bytes: UnsafeBufferPointer<UInt8>) -> Event? {
        guard let base = bytes.baseAddress, Self.hasPrefix(Self.inputPrefix, base, bytes.count, at: 0) else {
            return nil
        }
        let nameStart = Self.inputPrefix.utf8CodeUnitCount
        guard let nameEnd = Self.plainStringEnd(base, bytes.count, from: nameStart),
              let index = index(ofUTF8: UnsafeBufferPointer(start: base + nameStart, count: nameEnd - nameStart))
        else { return nil }
        let kind = inputs[index].kind
        if nameEnd + 2 == bytes.count && base[nameEnd + 1] == 0x7D {  // "}
            return kind == .tap ? Event(index: index, payload: .tap) : nil
        }
        guard kind == .text, Self.hasPrefix(Self.valueKey, base, bytes.count, at: nameEnd) else { return nil }
        let valueStart = nameEnd + Self.valueKey.utf8CodeUnitCount
        guard let valueEnd = Self.plainStringEnd(base, bytes.count, from: valueStart),
              valueEnd + 2 == bytes.count, base[valueEnd + 1] == 0x7D
        else { return nil }
        return Event(index: index, payload: .text(Self.text(UnsafeRawBufferPointer(start: base + valueStart, count: valueEnd - valueStart))))
    }

    /// The index of the closing quote of a string that starts at `start` and holds no
    /// backslash and no control character, else nil. Eight bytes at a time while eight
    /// remain: in each mask of a word the lowest flagged byte is exact (a borrow only
    /// flags bytes above it), so the lowest of the three is the first byte that ends the scan.
    private static func plainStringEnd(_ base: UnsafePointer<UInt8>, _ count: Int, from start: Int) -> Int? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        while index + 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let quotes = word ^ (ones &* 0x22)
            let backslashes = word ^ (ones &* 0x5C)
            let found = ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes
                | (word &- ones &* 0x20) & ~word) & highs
            if found != 0 {
                let at = index + found.trailingZeroBitCount / 8
                return base[at] == 0x22 ? at : nil
            }
            index += 8
        }
        while index < count {
            let byte = base[index]
            if byte == 0x22 { return index }                       // "
            if byte == 0x5C || byte < 0x20 { return nil }          // \ or a control character
            index += 1
        }
        return nil
    }

    /// The value's `String`, as `String(decoding:as:)` makes it: up to 15 ASCII bytes are
    /// copied into a small string and checked with one mask, where decoding scanned and
    /// copied them byte by byte (about 100 instructions a message).
    private static func text(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { target in
            UnsafeMutableRawBufferPointer(target).copyMemory(from: bytes)
            return bytes.count
        }
    }

    private static func hasPrefix(_ prefix: StaticString, _ base: UnsafePointer<UInt8>, _ count: Int, at offset: Int) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard count - offset >= length else { return false }
        return bytesEqual(base + offset, prefix.utf8Start, length)
    }
}
