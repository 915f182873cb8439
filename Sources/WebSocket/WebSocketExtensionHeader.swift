/// One extension of a `Sec-WebSocket-Extensions` header (RFC 6455 section 9.1): its name
/// and its parameters in the order sent, each with its value when it had one.
public struct WebSocketExtensionElement: Hashable, Sendable {
    /// One `name[=value]` parameter; a quoted value is given unquoted.
    public struct Parameter: Hashable, Sendable {
        /// The parameter's name, lowercased.
        public var name: String
        /// The value after `=`, nil for a bare name.
        public var value: String?

        /// A parameter as parsed from a header (or as a test expects it).
        public init(name: String, value: String? = nil) {
            self.name = name
            self.value = value
        }
    }

    /// The extension token, lowercased (tokens compare case-insensitively).
    public var name: String
    /// The parameters in the order sent.
    public var parameters: [Parameter]

    /// An element as parsed from a header (or as a test expects it).
    public init(name: String, parameters: [Parameter] = []) {
        self.name = name
        self.parameters = parameters
    }
}

/// Splits `Sec-WebSocket-Extensions` values into extension elements.
public enum WebSocketExtensionHeader {
    /// The elements of every value, in order. An element that breaks the grammar
    /// (`extension-token *( ";" extension-param )`, a parameter value being a token or a
    /// quoted string whose content is a token) is given as nil, so a caller can decline
    /// that offer and still read the ones after it. Empty list items are skipped.
    public static func parse(_ values: [String]) -> [WebSocketExtensionElement?] {
        var elements: [WebSocketExtensionElement?] = []
        for value in values {
            for item in splitOutsideQuotes(Substring(value), at: ",") {
                let trimmed = trimmed(item)
                if trimmed.isEmpty { continue }
                elements.append(element(trimmed))
            }
        }
        return elements
    }

    private static func element(_ text: Substring) -> WebSocketExtensionElement? {
        let parts = splitOutsideQuotes(text, at: ";")
        let name = trimmed(parts[0])
        guard isToken(name) else { return nil }
        var parameters: [WebSocketExtensionElement.Parameter] = []
        for part in parts.dropFirst() {
            guard let parameter = parameter(trimmed(part)) else { return nil }
            parameters.append(parameter)
        }
        return WebSocketExtensionElement(name: name.lowercased(), parameters: parameters)
    }

    private static func parameter(_ text: Substring) -> WebSocketExtensionElement.Parameter? {
        guard let equals = text.firstIndex(of: "=") else {
            return isToken(text) ? .init(name: text.lowercased()) : nil
        }
        let name = trimmed(text[..<equals])
        var value = trimmed(text[text.index(after: equals)...])
        guard isToken(name) else { return nil }
        if value.first == "\"" {
            guard let unquoted = unquote(value) else { return nil }
            value = Substring(unquoted)
        }
        // RFC 6455 9.1: a quoted value must still be a token once unquoted.
        guard isToken(value) else { return nil }
        return .init(name: name.lowercased(), value: String(value))
    }

    /// The content of a quoted-string (backslash escapes resolved), nil if it is not exactly one.
    private static func unquote(_ text: Substring) -> String? {
        guard text.count >= 2, text.first == "\"", text.last == "\"" else { return nil }
        var result = ""
        var escaped = false
        for character in text.dropFirst().dropLast() {
            if escaped {
                result.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                return nil
            } else {
                result.append(character)
            }
        }
        return escaped ? nil : result
    }

    /// Splits at `separator` except inside double quotes (a backslash escapes the next character there).
    private static func splitOutsideQuotes(_ text: Substring, at separator: Character) -> [Substring] {
        var parts: [Substring] = []
        var start = text.startIndex
        var inQuotes = false
        var escaped = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if inQuotes {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inQuotes = false }
            } else if character == "\"" {
                inQuotes = true
            } else if character == separator {
                parts.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        parts.append(text[start...])
        return parts
    }

    /// RFC 7230 `token`: one or more visible ASCII characters other than separators.
    static func isToken(_ text: Substring) -> Bool {
        guard !text.isEmpty else { return false }
        return text.utf8.allSatisfy { byte in
            byte > 0x20 && byte < 0x7F && !"()<>@,;:\\\"/[]?={}".utf8.contains(byte)
        }
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = text.firstIndex(where: { !isSpace($0) }),
              let end = text.lastIndex(where: { !isSpace($0) }) else { return text[text.endIndex...] }
        return text[start...end]
    }
}
