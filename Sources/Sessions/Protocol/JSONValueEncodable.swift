/// A value that an output stream can put on the wire as the `"value"` of an output message.
public protocol JSONValueEncodable {
    /// Appends this value as JSON text.
    func appendJSON(to json: inout String)
}

extension Bool: JSONValueEncodable {
    /// `true` or `false`.
    public func appendJSON(to json: inout String) {
        json.append(self ? "true" : "false")
    }
}

extension String: JSONValueEncodable {
    /// A quoted, escaped JSON string.
    public func appendJSON(to json: inout String) {
        json.appendJSONString(self)
    }
}

extension Int: JSONValueEncodable {
    /// A JSON integer in decimal, exactly.
    public func appendJSON(to json: inout String) {
        json.append(String(self))
    }
}

extension Int64: JSONValueEncodable {
    /// A JSON integer in decimal, exactly.
    public func appendJSON(to json: inout String) {
        json.append(String(self))
    }
}

extension Int128: JSONValueEncodable {
    /// A JSON integer in decimal, exactly (JSON numbers have no size limit; readers that
    /// use doubles round beyond 2^53).
    public func appendJSON(to json: inout String) {
        json.append(String(self))
    }
}
