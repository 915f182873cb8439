import WebSocket

/// The header names that nearly every WebSocket upgrade and page request carries, each
/// recognised once, as the parser reads it, by its length and a case-folded comparison.
///
/// The first `indexedCount` are the names the server looks up; a head notes where each of
/// them is (`HeaderFieldIndex`), so a look-up is no scan of the fields (an upgrade looked
/// up some twelve names, each a scan comparing every field's name). The rest are only
/// handed out as literals.
///
/// A name whose bytes are exactly the browser's spelling or the lower case (as HTTP/2
/// proxies pass it on) is handed out as a literal: a literal lives in the binary and is
/// never counted or freed, where making the name afresh cost about 200 instructions
/// (validating the bytes, and a heap block for a name over 15 bytes).
package enum CommonHeaderName: UInt8, CaseIterable {
    case host, upgrade, connection, origin
    case secWebSocketKey, secWebSocketVersion, secWebSocketExtensions
    case transferEncoding, contentLength, xForwardedFor, ifNoneMatch, ifModifiedSince
    // Where a sign-in is (the session cookie, or a script's bearer token).
    case cookie, authorization
    case userAgent, accept, acceptEncoding, acceptLanguage, cacheControl, pragma

    /// How many names, from the first, `HeaderFieldIndex` keeps (at most 16).
    static var indexedCount: UInt8 { 14 }

    /// The name in lower case and as browsers spell it: as bytes to compare a field's name
    /// with, and as `String` literals to hand out.
    @inline(__always)
    private var spellings: (lowercased: StaticString, canonical: StaticString, lowercasedString: String, canonicalString: String) {
        switch self {
        case .host: ("host", "Host", "host", "Host")
        case .upgrade: ("upgrade", "Upgrade", "upgrade", "Upgrade")
        case .connection: ("connection", "Connection", "connection", "Connection")
        case .origin: ("origin", "Origin", "origin", "Origin")
        case .secWebSocketKey: ("sec-websocket-key", "Sec-WebSocket-Key", "sec-websocket-key", "Sec-WebSocket-Key")
        case .secWebSocketVersion: ("sec-websocket-version", "Sec-WebSocket-Version", "sec-websocket-version", "Sec-WebSocket-Version")
        case .secWebSocketExtensions: ("sec-websocket-extensions", "Sec-WebSocket-Extensions", "sec-websocket-extensions", "Sec-WebSocket-Extensions")
        case .transferEncoding: ("transfer-encoding", "Transfer-Encoding", "transfer-encoding", "Transfer-Encoding")
        case .contentLength: ("content-length", "Content-Length", "content-length", "Content-Length")
        case .xForwardedFor: ("x-forwarded-for", "X-Forwarded-For", "x-forwarded-for", "X-Forwarded-For")
        case .ifNoneMatch: ("if-none-match", "If-None-Match", "if-none-match", "If-None-Match")
        case .ifModifiedSince: ("if-modified-since", "If-Modified-Since", "if-modified-since", "If-Modified-Since")
        case .userAgent: ("user-agent", "User-Agent", "user-agent", "User-Agent")
        case .accept: ("accept", "Accept", "accept", "Accept")
        case .acceptEncoding: ("accept-encoding", "Accept-Encoding", "accept-encoding", "Accept-Encoding")
        case .acceptLanguage: ("accept-language", "Accept-Language", "accept-language", "Accept-Language")
        case .cacheControl: ("cache-control", "Cache-Control", "cache-control", "Cache-Control")
        case .pragma: ("pragma", "Pragma", "pragma", "Pragma")
        case .cookie: ("cookie", "Cookie", "cookie", "Cookie")
        case .authorization: ("authorization", "Authorization", "authorization", "Authorization")
        }
    }

    /// The name in lower case: the bytes a field's name is compared with.
    @inline(__always)
    var lowercased: StaticString { spellings.lowercased }
    /// The name as browsers spell it.
    @inline(__always)
    var canonical: StaticString { spellings.canonical }
    /// `lowercased` as a `String` literal.
    var lowercasedString: String { spellings.lowercasedString }
    /// `canonical` as a `String` literal.
    var canonicalString: String { spellings.canonicalString }

    /// How a field's name compares with one of these names.
    enum Match {
        /// Not this name, in any case.
        case none
        /// This name in some case (ASCII letters folded).
        case folded
        /// Exactly the lower-case bytes.
        case lowercase
        /// Exactly the browser's spelling.
        case canonical
    }

    /// The common name `bytes` spell in any case, if any: one switch on the length, then at
    /// most three candidates compared a word at a time.
    static func classify(_ bytes: UnsafeBufferPointer<UInt8>) -> (name: CommonHeaderName, match: Match)? {
        func only(_ candidate: CommonHeaderName) -> (name: CommonHeaderName, match: Match)? {
            let match = candidate.compare(bytes)
            return match == .none ? nil : (candidate, match)
        }
        switch bytes.count {
        case 4: return only(.host)
        case 6:
            // By first letter, so that a name is compared once.
            switch bytes.isEmpty ? 0 : ASCIITokenList.lowercase(bytes[0]) {
            case UInt8(ascii: "o"): return only(.origin)
            case UInt8(ascii: "a"): return only(.accept)
            case UInt8(ascii: "p"): return only(.pragma)
            case UInt8(ascii: "c"): return only(.cookie)
            default: return nil
            }
        case 7: return only(.upgrade)
        case 10: return only(.connection) ?? only(.userAgent)
        case 13:
            switch bytes.isEmpty ? 0 : ASCIITokenList.lowercase(bytes[0]) {
            case UInt8(ascii: "i"): return only(.ifNoneMatch)
            case UInt8(ascii: "c"): return only(.cacheControl)
            case UInt8(ascii: "a"): return only(.authorization)
            default: return nil
            }
        case 14: return only(.contentLength)
        case 15: return only(.xForwardedFor) ?? only(.acceptEncoding) ?? only(.acceptLanguage)
        case 17: return only(.secWebSocketKey) ?? only(.transferEncoding) ?? only(.ifModifiedSince)
        case 21: return only(.secWebSocketVersion)
        case 24: return only(.secWebSocketExtensions)
        default: return nil
        }
    }

    /// `bytes` (a field's name) against this name: bytes that are a letter in the lower-case
    /// name may be either case, every other byte must be equal. A word at a time, the last
    /// word overlapping the one before (every name has at least four bytes): the lower-case
    /// name's letters are exactly its bytes with 0x40 set (its others are "-"), so shifting
    /// those bits gives the 0x20 to fold at each letter and nowhere else.
    func compare(_ bytes: UnsafeBufferPointer<UInt8>) -> Match {
        let lower = lowercased
        let count = lower.utf8CodeUnitCount
        guard bytes.count == count, let sent = bytes.baseAddress else { return .none }
        // The browser's spelling, the usual, compared alone first: a third of the work below.
        if Self.differingBits(UnsafeRawPointer(sent), UnsafeRawPointer(canonical.utf8Start), count: count) == 0 { return .canonical }
        let words = (sent: UnsafeRawPointer(sent), lower: UnsafeRawPointer(lower.utf8Start),
                     canonical: UnsafeRawPointer(canonical.utf8Start))
        var differences = (folded: UInt64(0), lower: UInt64(0), canonical: UInt64(0))
        func compare<Word: FixedWidthInteger & UnsignedInteger>(at offset: Int, as _: Word.Type) {
            let word = words.sent.loadUnaligned(fromByteOffset: offset, as: Word.self)
            let wanted = words.lower.loadUnaligned(fromByteOffset: offset, as: Word.self)
            let letters = Word(truncatingIfNeeded: 0x4040_4040_4040_4040 as UInt64)
            differences.folded |= UInt64(truncatingIfNeeded: (word | (wanted & letters) >> 1) ^ wanted)
            differences.lower |= UInt64(truncatingIfNeeded: word ^ wanted)
            differences.canonical |= UInt64(truncatingIfNeeded: word ^ words.canonical.loadUnaligned(fromByteOffset: offset, as: Word.self))
        }
        if count >= 8 {
            var offset = 0
            while offset + 8 < count {
                compare(at: offset, as: UInt64.self)
                offset += 8
            }
            compare(at: count - 8, as: UInt64.self)
        } else {
            compare(at: 0, as: UInt32.self)
            compare(at: count - 4, as: UInt32.self)
        }
        if differences.folded != 0 { return .none }
        return differences.canonical == 0 ? .canonical : differences.lower == 0 ? .lowercase : .folded
    }

    /// The bits in which the `count` bytes (at least four) at `lhs` and `rhs` differ, a word at
    /// a time as `compare` reads them.
    private static func differingBits(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, count: Int) -> UInt64 {
        if count < 8 {
            let first = lhs.loadUnaligned(as: UInt32.self) ^ rhs.loadUnaligned(as: UInt32.self)
            let last = lhs.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self) ^ rhs.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            return UInt64(first | last)
        }
        var bits: UInt64 = 0
        var offset = 0
        while offset + 8 < count {
            bits |= lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        return bits | (lhs.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) ^ rhs.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
    }

    /// The common name a field's name spells in any case, if any.
    static func classify(_ name: String) -> CommonHeaderName? {
        if let found = name.utf8.withContiguousStorageIfAvailable({ classify($0) }) { return found?.name }
        // A bridged string without contiguous UTF-8 (not one this server makes).
        return Array(name.utf8).withUnsafeBufferPointer { classify($0) }?.name
    }

    /// A field's value bytes as a `String`: the literal of the value every upgrade sends for
    /// `name` (`Upgrade: websocket`, `Connection: Upgrade`, `Sec-WebSocket-Version: 13`)
    /// when they are exactly its bytes, else decoded.
    static func string(ofValue bytes: UnsafeBufferPointer<UInt8>, classified name: CommonHeaderName?) -> String {
        switch name {
        case .upgrade?: string(of: bytes, usually: "websocket", "websocket")
        case .connection?: string(of: bytes, usually: "Upgrade", "Upgrade")
        case .secWebSocketVersion?: string(of: bytes, usually: "13", "13")
        default: String(decoding: bytes, as: UTF8.self)
        }
    }

    /// `bytes` as a `String`: `literal` (the same text as `usual`) when they are exactly its
    /// bytes. A literal is never validated, allocated or counted, where decoding the bytes
    /// cost about 200 instructions.
    @inline(__always)
    static func string(of bytes: UnsafeBufferPointer<UInt8>, usually usual: StaticString, _ literal: String) -> String {
        let count = usual.utf8CodeUnitCount
        if bytes.count == count, let sent = bytes.baseAddress {
            var index = 0
            while index < count && sent[index] == usual.utf8Start[index] { index += 1 }
            if index == count { return literal }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
