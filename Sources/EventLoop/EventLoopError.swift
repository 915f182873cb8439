import CLibUV

/// A libuv call that failed, with the operation and libuv's message.
public struct EventLoopError: Error, CustomStringConvertible, Equatable {
    /// The libuv status code (negative errno).
    public let code: Int32
    /// What was being done, e.g. "listen on 127.0.0.1:8080".
    public let operation: String

    init(_ code: Int32, _ operation: String) {
        self.code = code
        self.operation = operation
    }

    /// True when the failure is "address already in use".
    public var isAddressInUse: Bool { code == UV_EADDRINUSE.rawValue }

    /// libuv's message for the code, e.g. "connection refused".
    public var reason: String { String(cString: uv_strerror(code)) }

    /// The operation and libuv's message, e.g. "listen on 127.0.0.1:80: address already in use (EADDRINUSE)".
    public var description: String {
        "\(operation): \(reason) (\(String(cString: uv_err_name(code))))"
    }

    /// Throws when `status` is a libuv error.
    static func check(_ status: Int32, _ operation: @autoclosure () -> String) throws {
        if status < 0 { throw EventLoopError(status, operation()) }
    }
}
