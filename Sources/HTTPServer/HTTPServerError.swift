import EventLoop

/// Errors of `HTTPServer.start()`.
public enum HTTPServerError: Error, CustomStringConvertible, Sendable {
    /// The configured public directory is missing or not a directory.
    case publicDirectoryMissing(String)
    /// Binding or listening failed (e.g. the port is in use).
    case listenFailed(host: String, port: Int, EventLoopError)
    /// `start()` was called twice, or after `shutdown`.
    case alreadyStarted

    /// One line for the operator, e.g. "cannot listen on 127.0.0.1:8080: the port is already in use".
    public var description: String {
        switch self {
        case .publicDirectoryMissing(let path): "public directory \(path) does not exist or is not a directory"
        case .listenFailed(let host, let port, let error) where error.isAddressInUse:
            "cannot listen on \(host):\(port): the port is already in use"
        case .listenFailed(let host, let port, let error): "cannot listen on \(host):\(port): \(error)"
        case .alreadyStarted: "the server was already started"
        }
    }
}
