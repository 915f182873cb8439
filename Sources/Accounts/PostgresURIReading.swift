import CLibPQ
#if canImport(Glibc)
import Glibc
#endif

/// What libpq makes of a connection URI, told in words that never hold its secrets: libpq's
/// own messages quote the token they stumble on, and that token may be the password.
public enum PostgresURIReading {
    /// nil when libpq can read `uri`; otherwise why not, with every token libpq quoted left out.
    public static func problem(_ uri: String) -> String? {
        if let failure = rx_libpq_load_error() { return String(cString: failure) }
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(uri, &error) else {
            let reason = error.map { String(cString: $0) } ?? "out of memory"
            PQfreemem(error)
            return withoutQuotedTokens(reason)
        }
        PQconninfoFree(options)
        return nil
    }

    /// libpq's `message` about a connection to `uri` with every secret of the URI, as
    /// written and as libpq decoded it, replaced by `DatabaseURIMasking.mask`.
    static func scrubbed(_ message: String, uri: String) -> String {
        let secrets = (DatabaseURIMasking.writtenSecrets(uri) + decodedSecrets(uri)).sorted { $0.count > $1.count }
        return secrets.reduce(message) { text, secret in
            text.replacing(secret, with: DatabaseURIMasking.mask)
        }
    }

    /// The values libpq reads for the secret keywords of `uri`.
    private static func decodedSecrets(_ uri: String) -> [String] {
        guard let options = PQconninfoParse(uri, nil) else { return [] }
        defer { PQconninfoFree(options) }
        var secrets: [String] = []
        var option = options
        while let keyword = option.pointee.keyword {
            if DatabaseURIMasking.secretParameters.contains(String(cString: keyword)), let value = option.pointee.val {
                let text = String(cString: value)
                if !text.isEmpty { secrets.append(text) }
            }
            option += 1
        }
        return secrets
    }

    /// `text` with each `"…"` span shown as `"…"`, and all after an unmatched quote dropped.
    static func withoutQuotedTokens(_ text: String) -> String {
        var result = ""
        var inQuote = false
        for character in text.trimmingTrailingNewlines {
            if character == "\"" {
                result += inQuote ? "…\"" : "\""
                inQuote.toggle()
            } else if !inQuote {
                result.append(character)
            }
        }
        return inQuote ? result + "…\"" : result
    }
}
