import HTTPServer

/// What a sign-in `POST` carries. The page submits a form (`application/x-www-form-urlencoded`:
/// `code` and `return`, the page's path), as LiveView's `phx-trigger-action` does: a form post
/// is what the page's `Content-Security-Policy` allows (`form-action 'self'`, while
/// `connect-src` names only its WebSocket origin), and the answer is a `303` back to the page,
/// which reloads signed in or out. A script sends the code alone as the body and gets JSON.
struct SignInRequest {
    /// The hand-over code (empty for a log out).
    let code: String
    /// Where a form's answer sends the browser back: a path on this site; nil for a script.
    let returnPath: String?

    init(_ request: HTTPRequestContext) {
        let contentType = request.head.header("content-type")?.lowercased() ?? ""
        guard contentType.hasPrefix("application/x-www-form-urlencoded") else {
            code = String(decoding: request.body, as: UTF8.self).trimmingSpaces
            returnPath = nil
            return
        }
        var fields: [String: String] = [:]
        for pair in request.body.split(separator: UInt8(ascii: "&")) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.formDecoded(parts[0]), fields[name] == nil else { continue }
            fields[name] = parts.count == 2 ? Self.formDecoded(parts[1]) : ""
        }
        code = fields["code"] ?? ""
        returnPath = Self.sitePath(fields["return"]) ?? "/"
    }

    /// A form's answer: `303 See Other` back to the page, with `cookie` set or cleared.
    func redirect(setting cookie: (name: String, value: String)?) -> HTTPResponse {
        var response = HTTPResponse(status: 303, headers: [("Location", returnPath ?? "/"), ("Cache-Control", "no-store")])
        if let cookie { response.headers.append(cookie) }
        return response
    }

    /// `text` when it is a path of this site: it begins with one "/" (never "//" or "/\", which
    /// browsers read as another host) and holds no control character; else nil.
    static func sitePath(_ text: String?) -> String? {
        guard let text, text.hasPrefix("/"), !text.hasPrefix("//"), !text.hasPrefix("/\\"),
              text.utf8.count <= 2048, !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return nil
        }
        return text
    }

    /// A form field decoded (`+` is a space, `%XX` a byte); nil when it is not UTF-8 or an escape is broken.
    static func formDecoded(_ bytes: ArraySlice<UInt8>) -> String? {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                decoded.append(0x20)
            } else if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex,
                      let high = RequestPath.hexValue(bytes[index + 1]), let low = RequestPath.hexValue(bytes[index + 2]) else { return nil }
                decoded.append(high << 4 | low)
                index += 2
            } else {
                decoded.append(byte)
            }
            index += 1
        }
        return String(validating: decoded, as: UTF8.self)
    }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
