import Glibc

/// Writes to the process's standard error, whole lines at once, without Foundation's
/// `FileHandle` (see `NamedThread` for why Foundation is not linked).
public enum StandardError {
    /// Writes `text` as it is (add the newline yourself); a short write is retried, an
    /// error dropped (there is nowhere else to report it).
    public static func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
