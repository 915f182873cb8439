/// A response to write: status, header fields and body.
public struct HTTPResponse: Sendable {
    /// The status code, e.g. 200.
    public var status: Int
    /// Header fields; Content-Length, Date and Connection are added when written.
    public var headers: [(name: String, value: String)]
    /// The body (left out for HEAD and 304).
    public var body: [UInt8]

    /// A response from its parts.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a `Content-Type` and a UTF-8 body.
    public init(status: Int, contentType: String, body: String) {
        self.init(status: status, headers: [("Content-Type", contentType)], body: Array(body.utf8))
    }

    /// A short plain-text error page for `status`.
    static func error(_ status: Int, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        var response = HTTPResponse(status: status, contentType: "text/plain; charset=utf-8",
                                    body: "\(status) \(HTTPStatus.reasonPhrase(status))\n")
        response.headers += headers
        return response
    }
}

/// Reason phrases of the statuses this server sends.
public enum HTTPStatus {
    /// The reason phrase for `status`, e.g. "Not Found".
    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 101: "Switching Protocols"
        case 200: "OK"
        case 303: "See Other"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 421: "Misdirected Request"
        case 426: "Upgrade Required"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }
}
