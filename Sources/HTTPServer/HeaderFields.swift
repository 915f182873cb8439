import Glibc
import WebSocket

/// A head's header fields as they came: the bytes of every name and value in one buffer, and
/// where each field's name and value lie in it. A name or value becomes a `String` only when
/// it is asked for, so a request's fields cost two blocks however many there are (a browser
/// sends a dozen, each a `String` and most a heap block of their own before), and dropping a
/// head releases two buffers instead of destroying every string.
struct HeaderFields: Sendable {
    /// Where one field's name and value are in `bytes`, and the common name it spells.
    struct Span: Sendable {
        var nameStart: UInt32
        var nameEnd: UInt32
        var valueStart: UInt32
        var valueEnd: UInt32
        /// `CommonHeaderName.rawValue` + 1, or 0 for another name.
        var common: UInt8
        /// The name's bytes are exactly the common name's lower case (1) or browser spelling (2).
        var spelling: UInt8
    }

    /// The fields' bytes: for a parsed head, a slice of the buffer the connection read it
    /// into (kept, not copied).
    private var bytes: ArraySlice<UInt8>
    private var spans: [Span]
    /// Where the looked-up common names are.
    private(set) var index: HeaderFieldIndex

    /// The parser's fields: `bytes` holds them, `spans` says where each is (offsets from the
    /// slice's start).
    init(bytes: ArraySlice<UInt8>, spans: [Span], index: HeaderFieldIndex) {
        self.bytes = bytes
        self.spans = spans
        self.index = index
    }

    /// Fields from their names and values, in order.
    init(_ pairs: [(name: String, value: String)]) {
        var bytes: [UInt8] = []
        var spans: [Span] = []
        var index = HeaderFieldIndex()
        spans.reserveCapacity(pairs.count)
        for (name, value) in pairs {
            let nameStart = UInt32(bytes.count)
            bytes.append(contentsOf: name.utf8)
            let valueStart = UInt32(bytes.count)
            bytes.append(contentsOf: value.utf8)
            let classified = bytes.withUnsafeBufferPointer {
                CommonHeaderName.classify(UnsafeBufferPointer(rebasing: $0[Int(nameStart)..<Int(valueStart)]))
            }
            index.note(classified?.name, at: spans.count)
            spans.append(Span(nameStart: nameStart, nameEnd: valueStart, valueStart: valueStart, valueEnd: UInt32(bytes.count),
                              classified: classified))
        }
        self.init(bytes: bytes[...], spans: spans, index: index)
    }

    var count: Int { spans.count }

    /// Field `position`'s name as sent.
    func name(_ position: Int) -> String {
        let span = spans[position]
        if let common = span.commonName {
            if span.spelling == 2 { return common.canonicalString }
            if span.spelling == 1 { return common.lowercasedString }
        }
        return withBytes(span.nameStart, span.nameEnd) { String(decoding: $0, as: UTF8.self) }
    }

    /// Field `position`'s value, without surrounding whitespace.
    func value(_ position: Int) -> String {
        let span = spans[position]
        return withBytes(span.valueStart, span.valueEnd) { CommonHeaderName.string(ofValue: $0, classified: span.commonName) }
    }

    /// The values of the fields named `name` (ASCII case folded), in order.
    func values(named name: String) -> [String] {
        var values: [String] = []
        for position in 0..<count where hasName(position, name) {
            values.append(value(position))
        }
        return values
    }

    /// `body` of field `position`'s value bytes (valid during the call).
    func withValue<Result>(_ position: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let span = spans[position]
        return withBytes(span.valueStart, span.valueEnd, body)
    }

    /// Whether field `position`'s value is exactly `text`'s bytes, read in place.
    @inline(__always)
    func valueIs(_ position: Int, _ text: StaticString) -> Bool {
        let span = spans[position]
        let count = Int(span.valueEnd &- span.valueStart)
        guard count == text.utf8CodeUnitCount else { return false }
        if count == 0 { return true }
        return bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + Int(span.valueStart), text.utf8Start, count) == 0 }
    }

    /// Whether field `position`'s name is `name` with ASCII case folded.
    func hasName(_ position: Int, _ name: String) -> Bool {
        let span = spans[position]
        return withBytes(span.nameStart, span.nameEnd) { sent in
            var name = name
            return name.withUTF8 { wanted in
                guard sent.count == wanted.count else { return false }
                for offset in 0..<sent.count
                where ASCIITokenList.lowercase(sent[offset]) != ASCIITokenList.lowercase(wanted[offset]) { return false }
                return true
            }
        }
    }

    private func withBytes<Result>(_ start: UInt32, _ end: UInt32, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[Int(start)..<Int(end)])) }
    }
}

extension HeaderFields: Equatable {
    /// Equal when the same names and values come in the same order.
    static func == (lhs: HeaderFields, rhs: HeaderFields) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for position in 0..<lhs.count {
            let left = lhs.spans[position]
            let right = rhs.spans[position]
            let sameName = lhs.withBytes(left.nameStart, left.nameEnd) { leftName in
                rhs.withBytes(right.nameStart, right.nameEnd) { leftName.elementsEqual($0) }
            }
            let sameValue = lhs.withBytes(left.valueStart, left.valueEnd) { leftValue in
                rhs.withBytes(right.valueStart, right.valueEnd) { leftValue.elementsEqual($0) }
            }
            if !sameName || !sameValue { return false }
        }
        return true
    }
}

extension HeaderFields.Span {
    /// A field's span, with what `CommonHeaderName.classify` made of its name.
    init(nameStart: UInt32, nameEnd: UInt32, valueStart: UInt32, valueEnd: UInt32,
         classified: (name: CommonHeaderName, match: CommonHeaderName.Match)?) {
        self.nameStart = nameStart
        self.nameEnd = nameEnd
        self.valueStart = valueStart
        self.valueEnd = valueEnd
        common = classified.map { $0.name.rawValue + 1 } ?? 0
        switch classified?.match {
        case .lowercase?: spelling = 1
        case .canonical?: spelling = 2
        default: spelling = 0
        }
    }

    /// The common name the field's name spells, in any case.
    var commonName: CommonHeaderName? {
        common == 0 ? nil : CommonHeaderName(rawValue: common - 1)
    }
}
