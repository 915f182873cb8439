import COpenSSL

/// Why a TLS context could not be made or a session cannot go on, in one line.
public struct TLSError: Error, CustomStringConvertible, Sendable {
    /// The line to show.
    public let description: String

    /// `what`, followed by the reasons OpenSSL queued on this thread (which are then cleared).
    static func openSSL(_ what: String) -> TLSError {
        var reasons: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            let reason = ERR_reason_error_string(code).map { String(cString: $0) } ?? "error \(code)"
            if !reasons.contains(reason) { reasons.append(reason) }
        }
        return TLSError(description: reasons.isEmpty ? what : "\(what): \(reasons.joined(separator: "; "))")
    }
}
