#if canImport(Glibc)
import Glibc
#endif

/// The proxies whose `X-Forwarded-For` is believed: IP addresses and CIDR ranges, IPv4 and
/// IPv6 (`10.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`). An IPv4 address seen as IPv4-mapped
/// IPv6 (`::ffff:10.0.0.1`) is matched as the IPv4 address it is.
public struct TrustedProxies: Sendable, Equatable, ExpressibleByArrayLiteral {
    /// One address or range: the network's bytes (4 or 16) and how many leading bits count.
    private struct Range: Sendable, Equatable {
        let network: [UInt8]
        let prefixLength: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == network.count else { return false }
            return Range(address, prefixLength: prefixLength).network == network
        }

        /// `bytes` with every bit past `prefixLength` cleared.
        init(_ bytes: [UInt8], prefixLength: Int) {
            network = bytes.enumerated().map { index, byte in
                let kept = min(8, max(0, prefixLength - index * 8))
                return kept == 8 ? byte : byte & ~(0xFF >> UInt8(kept))
            }
            self.prefixLength = prefixLength
        }
    }

    private var ranges: [Range] = []

    /// No proxy: every client is its TCP peer.
    public init() {}

    /// The proxies `entries` name; an entry `problem(_:)` refuses is left out, so check
    /// them first (`rxlive` refuses such a setting at start).
    public init(_ entries: [String]) {
        ranges = entries.compactMap(Self.range)
    }

    /// For tests and code: each literal must be an address or a range.
    public init(arrayLiteral entries: String...) {
        self.init(entries)
    }

    /// True when no proxy is trusted.
    public var isEmpty: Bool { ranges.isEmpty }

    /// Whether `address` (as a peer or an `X-Forwarded-For` hop gives it) is a trusted proxy.
    public func contains(_ address: some StringProtocol) -> Bool {
        guard !ranges.isEmpty, let bytes = Self.addressBytes(String(address)) else { return false }
        let unmapped = Self.unmappedIPv4(bytes) ?? bytes
        return ranges.contains { $0.contains(unmapped) || $0.contains(bytes) }
    }

    /// Why `entry` is neither an IP address nor a CIDR range; nil when it is one.
    public static func problem(_ entry: String) -> String? {
        range(entry) == nil
            ? "'\(entry)' is not an IP address or a CIDR range (such as 10.0.0.1, 10.0.0.0/8, ::1 or fd00::/8)"
            : nil
    }

    private static func range(_ entry: String) -> Range? {
        let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = addressBytes(String(parts[0])) else { return nil }
        let bits = bytes.count * 8
        guard parts.count == 2 else { return Range(bytes, prefixLength: bits) }
        guard parts[1].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isNumber), parts[1].count <= 3,
              let length = Int(parts[1]), length <= bits else { return nil }
        return Range(bytes, prefixLength: length)
    }

    /// The 4 bytes of a dotted-quad IPv4 address or the 16 of an IPv6 one; nil for anything else.
    private static func addressBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// The IPv4 address inside an IPv4-mapped IPv6 one (`::ffff:a.b.c.d`).
    private static func unmappedIPv4(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF else { return nil }
        return Array(bytes[12...])
    }
}
