/// Hides the secrets of a database location before it is logged or printed.
public enum DatabaseURIMasking {
    /// What a hidden secret is shown as.
    public static let mask = "***"

    /// Query parameters whose value is a secret (libpq's keywords), compared after
    /// percent-decoding and case-folding, as libpq reads them.
    static let secretParameters: Set<String> = ["password", "sslpassword"]

    /// `location` with every password hidden: the one in the userinfo
    /// (`postgres://user:secret@host`) and every `password=`/`sslpassword=` query parameter,
    /// in any order, spelled in any case or percent-encoded. Works for `postgres://`,
    /// `postgresql://` and any other `scheme://` location; anything else (`sqlite:PATH`) is
    /// returned as it is. When in doubt it hides more, never less: a password may hold `?`,
    /// `/` or `@`, so all up to the last `@` is taken as userinfo, and a userinfo that
    /// cannot be one (a `/`, `?`, `&` or `=` before its `:`) is hidden whole.
    public static func masked(_ location: String) -> String {
        guard let schemeEnd = location.firstRange(of: "://") else { return location }
        let afterScheme = location[schemeEnd.upperBound...]
        var result = String(location[..<schemeEnd.upperBound])
        var rest = afterScheme
        if let at = afterScheme.lastIndex(of: "@") {
            let userinfo = afterScheme[..<at]
            let user = userinfo.prefix { $0 != ":" }
            if user.contains(where: { "/?#&=".contains($0) }) {
                result += mask
            } else {
                result += user.count < userinfo.count ? user + ":" + mask : user
            }
            rest = afterScheme[at...]
        }
        if let query = rest.firstIndex(of: "?") {
            result += rest[..<query] + "?" + maskedQuery(rest[rest.index(after: query)...])
        } else {
            result += rest
        }
        return result
    }

    /// The secrets of `location` as written in it: the userinfo's password (all after its
    /// first `:` up to the last `@`) and the values of secret query parameters. For taking
    /// them out of text that may quote them, such as libpq's errors.
    static func writtenSecrets(_ location: String) -> [String] {
        guard let schemeEnd = location.firstRange(of: "://") else { return [] }
        let afterScheme = location[schemeEnd.upperBound...]
        var secrets: [String] = []
        var rest = afterScheme
        if let at = afterScheme.lastIndex(of: "@") {
            let userinfo = afterScheme[..<at]
            if let colon = userinfo.firstIndex(of: ":") { secrets.append(String(userinfo[userinfo.index(after: colon)...])) }
            rest = afterScheme[at...]
        }
        if let query = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: query)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if parts.count == 2, secretParameters.contains(percentDecoded(parts[0]).lowercased()) {
                    secrets.append(String(parts[1]))
                }
            }
        }
        return secrets.filter { !$0.isEmpty }
    }

    /// The query with the values of secret parameters hidden; the rest as given.
    private static func maskedQuery(_ query: Substring) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = percentDecoded(parts[0]).lowercased()
            guard secretParameters.contains(name) else { return String(pair) }
            return parts[0] + "=" + mask
        }.joined(separator: "&")
    }

    /// `text` with `%XX` escapes decoded (a malformed one is kept as it is).
    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"),
               let high = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex), high < utf8.endIndex,
               let low = utf8.index(index, offsetBy: 2, limitedBy: utf8.endIndex), low < utf8.endIndex,
               let value = UInt8(String(decoding: [utf8[high], utf8[low]], as: UTF8.self), radix: 16) {
                bytes.append(value)
                index = utf8.index(after: low)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
