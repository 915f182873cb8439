import WebSocket

/// Which hosts the server answers for and which browser origins may open a WebSocket.
///
/// A request whose `Host` names another host is refused (421): a page on an attacker's name
/// that resolves to this server (DNS rebinding) is then answered by nobody. The page's own
/// origin — the server's scheme with the request's `Host`, itself one of the names — may
/// always open WebSockets; `extraOrigins` adds more.
struct HostPolicy {
    /// Lowercased host names (IPv6 literals in brackets), without ports.
    let names: Set<String>
    /// `names` as bytes while the list is short: the Host's bytes compared with a few names
    /// in place cost less than making its lowercased name and hashing it for the set (about
    /// 700 instructions a request).
    private let shortList: [[UInt8]]?
    /// True when the names include "*": any host is answered.
    let anyHost: Bool
    /// "http" or "https": the scheme of the page's own origin.
    let scheme: String
    /// Lowercased origins allowed besides the page's own.
    let extraOrigins: Set<String>
    /// True when the extra origins include "*".
    let anyOrigin: Bool

    /// The policy of a server with `configuration`.
    init(configuration: HTTPServerConfiguration) {
        self.init(names: configuration.serverNames ?? Self.defaultNames(listeningOn: configuration.host),
                  scheme: configuration.tls == nil ? "http" : "https", extraOrigins: configuration.allowedOrigins ?? [])
    }

    /// A policy from its parts; names and origins are compared case-insensitively.
    init(names: [String], scheme: String, extraOrigins: [String]) {
        let names = names.map { Self.bracketed($0.lowercased()) }
        self.names = Set(names)
        // ASCII names only: for those, comparing bytes is String's equality.
        shortList = self.names.count <= 8 && self.names.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }
            ? self.names.map { Array($0.utf8) } : nil
        anyHost = names.contains("*")
        self.scheme = scheme
        let origins = extraOrigins.map { $0.lowercased() }
        self.extraOrigins = Set(origins)
        anyOrigin = origins.contains("*")
    }

    /// The listening address, `localhost`, `127.0.0.1` and `[::1]`.
    static func defaultNames(listeningOn host: String) -> [String] {
        [host, "localhost", "127.0.0.1", "[::1]"]
    }

    /// IPv6 literals as they appear in a Host header: in brackets.
    private static func bracketed(_ name: String) -> String {
        name.contains(":") && !name.hasPrefix("[") ? "[\(name)]" : name
    }

    /// True when `host` (a Host header: name, optionally `:port`) names this server.
    func accepts(host: String) -> Bool {
        if let shortList, let scanned = host.utf8.withContiguousStorageIfAvailable({ acceptsASCII($0, among: shortList) }),
           let accepted = scanned {
            return accepted
        }
        guard let name = Self.name(ofHostHeader: host) else { return false }
        return anyHost || names.contains(name)
    }

    /// `accepts(host:)` of a Host header's bytes, read in place.
    func accepts(hostBytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if let shortList, let accepted = acceptsASCII(hostBytes, among: shortList) { return accepted }
        return accepts(host: String(decoding: hostBytes, as: UTF8.self))
    }

    /// `accepts(host:)` of a Host header's bytes, its name compared with `list` in place;
    /// nil when the header is not ASCII (the Unicode path decides).
    private func acceptsASCII(_ header: UnsafeBufferPointer<UInt8>, among list: [[UInt8]]) -> Bool? {
        guard let end = Self.asciiNameEnd(header) else { return nil }
        guard let end else { return false }
        if anyHost { return true }
        for name in list where name.count == end {
            let same = name.withUnsafeBufferPointer { name in
                var index = 0
                while index < end && name[index] == ASCIITokenList.lowercase(header[index]) { index += 1 }
                return index == end
            }
            if same { return true }
        }
        return false
    }

    /// True when a browser at `origin` may open a WebSocket on a request whose (accepted)
    /// Host header is `host`.
    func allows(origin: String, host: String) -> Bool {
        let origin = origin.lowercased()
        return anyOrigin || extraOrigins.contains(origin) || origin == "\(scheme)://\(host.lowercased())"
    }

    /// `allows(origin:host:)` of the Origin and Host fields' bytes, read in place: the usual
    /// answer (the page's own origin, no extra origins) with no string made, lowercased or
    /// hashed (about 2,300 instructions a browser's upgrade).
    func allows(originBytes origin: UnsafeBufferPointer<UInt8>, hostBytes host: UnsafeBufferPointer<UInt8>) -> Bool {
        if anyOrigin { return true }
        let isASCII = !origin.contains { $0 >= 0x80 } && !host.contains { $0 >= 0x80 }
        if isASCII && isOwnOrigin(origin, host: host) { return true }
        // Both ASCII: lowercasing is ASCII's, so the comparison above was the whole answer.
        if isASCII && extraOrigins.isEmpty { return false }
        return allows(origin: String(decoding: origin, as: UTF8.self), host: String(decoding: host, as: UTF8.self))
    }

    /// Whether `origin` is `scheme://host`, ASCII letters folded.
    private func isOwnOrigin(_ origin: UnsafeBufferPointer<UInt8>, host: UnsafeBufferPointer<UInt8>) -> Bool {
        var scheme = scheme
        return scheme.withUTF8 { scheme in
            guard origin.count == scheme.count + 3 + host.count else { return false }
            var offset = 0
            for byte in scheme {
                guard ASCIITokenList.lowercase(origin[offset]) == byte else { return false }
                offset += 1
            }
            guard origin[offset] == UInt8(ascii: ":"), origin[offset + 1] == UInt8(ascii: "/"),
                  origin[offset + 2] == UInt8(ascii: "/") else { return false }
            offset += 3
            for byte in host {
                guard ASCIITokenList.lowercase(origin[offset]) == ASCIITokenList.lowercase(byte) else { return false }
                offset += 1
            }
            return true
        }
    }

    /// The lowercased host of a Host header without its port; nil when it is malformed (no
    /// name, an unclosed bracket, a port that is not a number in 1–65535).
    static func name(ofHostHeader header: String) -> String? {
        if let name = asciiName(ofHostHeader: header) { return name }
        return unicodeName(ofHostHeader: header)
    }

    /// Whether a Host header is well formed (`name(ofHostHeader:)` is not nil), without
    /// making the name: the parser's check of every request.
    static func isWellFormed(hostHeader header: String) -> Bool {
        let end = header.utf8.withContiguousStorageIfAvailable { asciiNameEnd($0) } ?? nil
        if let end { return end != nil }
        return unicodeName(ofHostHeader: header) != nil
    }

    /// `isWellFormed(hostHeader:)` of a Host header's bytes (valid UTF-8), read in place: the
    /// parser's check, with no string looked into.
    static func isWellFormed(hostBytes bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if let end = asciiNameEnd(bytes) { return end != nil }
        return unicodeName(ofHostHeader: String(decoding: bytes, as: UTF8.self)) != nil
    }

    /// `name(ofHostHeader:)` of an ASCII header, as bytes; `.some(nil)` for a malformed one,
    /// nil when the header is not ASCII or not contiguous.
    static func asciiName(ofHostHeader header: String) -> String?? {
        header.utf8.withContiguousStorageIfAvailable { bytes -> String?? in
            guard let end = asciiNameEnd(bytes) else { return nil }
            guard let end else { return .some(nil) }
            // Lowercased on the stack, then one contiguous decode: decoding a lazy map went
            // byte by byte through generic code (about 2,500 instructions a Host).
            return .some(withUnsafeTemporaryAllocation(of: UInt8.self, capacity: end) { lowered in
                for index in 0..<end { lowered[index] = ASCIITokenList.lowercase(bytes[index]) }
                return String(decoding: lowered, as: UTF8.self)
            })
        } ?? nil
    }

    /// Where the name of an ASCII Host header ends, its port (if any) checked; `.some(nil)`
    /// for a malformed one, nil when the header is not ASCII.
    private static func asciiNameEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int?? {
        // One pass: ASCII checked and the first ":" found together, eight bytes at a time and
        // the last few by index (slices, `firstIndex` and a range's `contains` cost about 250
        // instructions a Host).
        let count = bytes.count
        var colon = count
        var index = 0
        let ones: UInt64 = 0x0101_0101_0101_0101
        while index + 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self))
            if word & (ones &* 0x80) != 0 { return nil }
            if colon == count {
                // Zero bytes of `word ^ ":::…"` flagged at their high bit; all bytes are ASCII, so
                // the lowest flag is exact.
                let distance = word ^ (ones &* UInt64(UInt8(ascii: ":")))
                let zeros = (distance &- ones) & ~distance & (ones &* 0x80)
                if zeros != 0 { colon = index + zeros.trailingZeroBitCount / 8 }
            }
            index += 8
        }
        while index < count {
            let byte = bytes[index]
            if byte >= 0x80 { return nil }
            if byte == UInt8(ascii: ":") && colon == count { colon = index }
            index += 1
        }
        var end = colon  // end of the name, where the port part begins
        if count > 0 && bytes[0] == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return .some(nil) }
            end = close + 1
        }
        guard end > 0 else { return .some(nil) }
        if end < count {
            // ":" and 1 to 5 digits, 1...65535.
            guard bytes[end] == UInt8(ascii: ":"), count - end - 1 >= 1, count - end - 1 <= 5 else { return .some(nil) }
            var number = 0
            index = end + 1
            while index < count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return .some(nil) }
                number = number * 10 + Int(digit)
                index += 1
            }
            guard number >= 1 && number <= 65535 else { return .some(nil) }
        }
        return .some(end)
    }

    static func unicodeName(ofHostHeader header: String) -> String? {
        let header = header.lowercased()
        let name: Substring
        let rest: Substring
        if header.hasPrefix("[") {
            guard let close = header.firstIndex(of: "]") else { return nil }
            name = header[...close]
            rest = header[header.index(after: close)...]
        } else if let colon = header.firstIndex(of: ":") {
            name = header[..<colon]
            rest = header[colon...]
        } else {
            name = header[...]
            rest = ""
        }
        guard !name.isEmpty else { return nil }
        if !rest.isEmpty {
            let port = rest.dropFirst()
            guard rest.first == ":", !port.isEmpty, port.count <= 5, port.allSatisfy(\.isASCIIDigit),
                  let number = Int(port), (1...65535).contains(number) else { return nil }
        }
        return String(name)
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
