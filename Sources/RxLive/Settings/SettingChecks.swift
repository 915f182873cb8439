import FoundationEssentials
import Glibc

/// The checks of list settings' items: each finds a value that can never work, and says
/// why in words an operator can act on, so that it stops `rxlive` at start instead of
/// answering every request `421` or `403` later.
enum SettingChecks {
    /// Why `name` can never be a request's `Host` name (a port, a wildcard other than `*`
    /// alone, brackets that do not hold an IPv6 address, …); nil when it can.
    static func serverNameProblem(_ name: String) -> String? {
        if name == "*" { return nil }
        return hostProblem(name).map { "'\(name)' is not a host name\($0)" }
    }

    /// Why `origin` can never be a browser's `Origin` (no scheme, a path, a bad port, …);
    /// nil when it can.
    static func originProblem(_ origin: String) -> String? {
        if origin == "*" { return nil }
        let refusal = "'\(origin)' is not an origin: write scheme://host or scheme://host:port, as a browser "
            + "sends it (such as https://example.com)"
        guard let schemeEnd = origin.firstRange(of: "://") else { return refusal }
        let scheme = origin[..<schemeEnd.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return refusal }
        let authority = origin[schemeEnd.upperBound...]
        guard let host = hostWithoutPort(authority) else { return refusal }
        return hostProblem(String(host)).map { _ in refusal }
    }

    /// Why `name` cannot be the name part of a `Host` (a suffix for "'…' is not a host name").
    private static func hostProblem(_ name: String) -> String? {
        if name.isEmpty || name.contains(where: { $0.isWhitespace || "/\\?#@%".contains($0) }) { return "" }
        if name.contains("*") { return ": `*` alone answers any host, and no other wildcard is supported" }
        if name.contains("[") || name.contains("]") {
            guard name.hasPrefix("["), name.hasSuffix("]"), isIPv6(name.dropFirst().dropLast()) else {
                return ": brackets hold an IPv6 address, as in [::1]"
            }
            return nil
        }
        if name.contains(":") && !isIPv6(name[...]) {
            return ": give it without a port (the port of a request's Host is not compared)"
        }
        return nil
    }

    /// The host of `authority` (`host`, `host:port`, `[v6]` or `[v6]:port`) when its port, if
    /// any, is a number from 1 to 65535; nil otherwise.
    private static func hostWithoutPort(_ authority: Substring) -> Substring? {
        let portStart: Substring.Index?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            portStart = authority.index(after: close) < authority.endIndex ? authority.index(after: close) : nil
        } else {
            portStart = authority.lastIndex(of: ":")
        }
        guard let portStart else { return authority }
        let port = authority[authority.index(after: portStart)...]
        guard authority[portStart] == ":", port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }),
              let number = Int(port), (1...65535).contains(number) else { return nil }
        return authority[..<portStart]
    }

    private static func isIPv6(_ text: Substring) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, String(text), &address) == 1
    }
}
