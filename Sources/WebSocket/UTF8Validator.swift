/// An incremental UTF-8 validator that can be fed a message in pieces.
///
/// It follows the well-formed byte sequences of the Unicode Standard (table 3-7),
/// so it rejects overlong forms, surrogates (U+D800–U+DFFF) and code points
/// above U+10FFFF, and it fails on the first byte that can no longer begin or
/// continue a valid sequence: a text message is refused as early as possible.
/// A sequence cut at the end of one piece continues with the next piece; call
/// `isComplete` at the end of the message to refuse a truncated last sequence.
public struct UTF8Validator: Sendable {
    /// What the next byte must be.
    @usableFromInline
    enum Expectation: UInt8, Sendable {
        case sequenceStart          // any ASCII byte or a valid lead byte
        case continuation1          // 80...BF, then done
        case continuation2          // 80...BF, then continuation1
        case continuation3          // 80...BF, then continuation2
        case afterE0                // A0...BF (no overlong 3-byte forms)
        case afterED                // 80...9F (no surrogates)
        case afterF0                // 90...BF (no overlong 4-byte forms)
        case afterF4                // 80...8F (nothing above U+10FFFF)
    }

    @usableFromInline
    var expectation: Expectation = .sequenceStart

    public init() {}

    /// True when the bytes so far end on a character boundary.
    @inlinable
    public var isComplete: Bool { expectation == .sequenceStart }

    /// Forgets everything fed so far (for the next message).
    @inlinable
    public mutating func reset() { expectation = .sequenceStart }

    /// Feeds the next bytes; returns false as soon as they cannot be part of
    /// valid UTF-8 (the validator then stays in an unspecified state).
    public mutating func validate(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        var state = expectation
        while index < count {
            if state == .sequenceStart {
                // ASCII runs are the common case: skip eight bytes at a time.
                while index + 8 <= count,
                      base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                }
                if index == count { break }
            }
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            index += 1
            switch state {
            case .sequenceStart:
                switch byte {
                case 0x00...0x7F: continue
                case 0xC2...0xDF: state = .continuation1
                case 0xE0: state = .afterE0
                case 0xE1...0xEC, 0xEE...0xEF: state = .continuation2
                case 0xED: state = .afterED
                case 0xF0: state = .afterF0
                case 0xF1...0xF3: state = .continuation3
                case 0xF4: state = .afterF4
                default: return false   // 80...C1 (stray continuation, overlong lead), F5...FF
                }
            case .continuation1:
                guard byte & 0xC0 == 0x80 else { return false }
                state = .sequenceStart
            case .continuation2:
                guard byte & 0xC0 == 0x80 else { return false }
                state = .continuation1
            case .continuation3:
                guard byte & 0xC0 == 0x80 else { return false }
                state = .continuation2
            case .afterE0:
                guard (0xA0...0xBF).contains(byte) else { return false }
                state = .continuation1
            case .afterED:
                guard (0x80...0x9F).contains(byte) else { return false }
                state = .continuation1
            case .afterF0:
                guard (0x90...0xBF).contains(byte) else { return false }
                state = .continuation2
            case .afterF4:
                guard (0x80...0x8F).contains(byte) else { return false }
                state = .continuation2
            }
        }
        expectation = state
        return true
    }

    /// Whether `bytes` as a whole are valid UTF-8.
    public static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var validator = UTF8Validator()
        return validator.validate(bytes) && validator.isComplete
    }
}
