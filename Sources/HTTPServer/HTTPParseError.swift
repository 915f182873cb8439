/// Why a request head was refused, with the status code to answer.
public enum HTTPParseError: Error, Sendable, Equatable {
    /// Malformed syntax (400): the reason is for logs and tests.
    case badRequest(String)
    /// The head passed the size limit (431).
    case headTooLarge
    /// More header fields than allowed (431).
    case tooManyHeaders
    /// An HTTP major version other than 1 (505).
    case versionNotSupported
    /// A body larger than the server takes (413).
    case contentTooLarge

    /// The response status for this error.
    public var status: Int {
        switch self {
        case .badRequest: 400
        case .headTooLarge, .tooManyHeaders: 431
        case .versionNotSupported: 505
        case .contentTooLarge: 413
        }
    }
}
