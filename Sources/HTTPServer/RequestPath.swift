/// The safe, decoded form of a request path: what routing, hidden paths and file lookup judge.
///
/// Refused: dot segments (`.`, `..`) and hidden names, percent-encoded dots,
/// slashes and backslashes, raw backslashes, NUL and other control characters, malformed
/// percent escapes and invalid UTF-8. What is left can only name something below the root.
public enum RequestPath {
    /// Outcome of checking a path.
    public enum Verdict: Equatable, Sendable {
        /// Decoded, non-empty segments (an empty list is the root).
        case segments([String])
        /// Malformed path: answer 400.
        case malformed
        /// Well-formed but refused: answer 404 without touching the file system.
        case refused
    }

    /// A path normalised for routing: decoded, or why there is none.
    public enum Normalised: Equatable, Sendable {
        /// `/` and the decoded segments joined by `/`: no empty segments, no trailing slash.
        case path(String)
        /// Malformed path: answer 400.
        case malformed
        /// Well-formed but refused: answer 404 without touching the file system.
        case refused
    }

    /// The one form every decision about `path` (still encoded, no query) is made on, so that
    /// `//dashboard` or `/%64ashboard` is judged as `/dashboard` is.
    public static func normalise(_ path: String) -> Normalised {
        isAlreadyNormal(path) ? .path(path) : normaliseByDecoding(path)
    }

    /// `normalise` without its fast path: what the fast path must agree with.
    static func normaliseByDecoding(_ path: String) -> Normalised {
        switch check(path) {
        case .segments(let segments): return .path("/" + segments.joined(separator: "/"))
        case .malformed: return .malformed
        case .refused: return .refused
        }
    }

    /// True when `path` is its own normal form: printable ASCII without escapes, backslashes or
    /// fragments, no empty segment, no segment starting with a dot, no trailing slash. The
    /// usual request (a WebSocket upgrade, a page's file) takes this path and allocates nothing.
    private static func isAlreadyNormal(_ path: String) -> Bool {
        // Read in place: iterating `utf8` went through the view's iterator byte by byte
        // (about 45 instructions a byte).
        var path = path
        return path.withUTF8(isAlreadyNormal(bytes:))
    }

    private static func isAlreadyNormal(bytes path: UnsafeBufferPointer<UInt8>) -> Bool {
        var previous: UInt8 = 0
        var count = 0
        for byte in path {
            if count == 0 && byte != UInt8(ascii: "/") { return false }
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "\\"), UInt8(ascii: "#"): return false
            case UInt8(ascii: "/") where previous == UInt8(ascii: "/"): return false
            case UInt8(ascii: ".") where previous == UInt8(ascii: "/"): return false
            case 0x21...0x7E: break
            default: return false
            }
            previous = byte
            count += 1
        }
        return count == 1 || (count > 1 && previous != UInt8(ascii: "/"))
    }

    /// Checks the still-encoded `path` (no query).
    public static func check(_ path: String) -> Verdict {
        guard path.hasPrefix("/") else { return .malformed }
        var segments: [String] = []
        for raw in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            var decoded: [UInt8] = []
            decoded.reserveCapacity(raw.count)
            var index = raw.startIndex
            while index < raw.endIndex {
                let byte = raw[index]
                if byte == UInt8(ascii: "\\") { return .refused }
                if byte == UInt8(ascii: "#") { return .malformed }
                if byte == UInt8(ascii: "%") {
                    guard raw.distance(from: index, to: raw.endIndex) >= 3,
                          let high = hexValue(raw[raw.index(index, offsetBy: 1)]),
                          let low = hexValue(raw[raw.index(index, offsetBy: 2)]) else { return .malformed }
                    let value = high << 4 | low
                    // Encoded separators and dots exist only to sneak past checks like these.
                    if value == UInt8(ascii: "/") || value == UInt8(ascii: "\\") || value == UInt8(ascii: ".") { return .refused }
                    if value < 0x20 || value == 0x7F { return .malformed }
                    decoded.append(value)
                    index = raw.index(index, offsetBy: 3)
                    continue
                }
                decoded.append(byte)
                index = raw.index(after: index)
            }
            guard let segment = String(validating: decoded, as: UTF8.self) else { return .malformed }
            if segment.hasPrefix(".") { return .refused }
            segments.append(segment)
        }
        return .segments(segments)
    }

    /// The value of a hex digit (either case), nil for any other byte: for a `%XX` escape.
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
