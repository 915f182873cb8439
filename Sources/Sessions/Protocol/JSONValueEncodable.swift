/// A value that an output stream can put on the wire as the `"value"` of an output message.
public protocol JSONValueEncodable {
    /// Appends this value as JSON text.
    func appendJSON(to json: inout String)

    /// Calls `body` with this value's JSON text as UTF-8 (valid during the call). The
    /// default goes through `appendJSON(to:)`; integers and booleans write into the stack.
    func withJSONBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result
}

extension JSONValueEncodable {
    /// The JSON text of `appendJSON(to:)`, as UTF-8.
    @inlinable
    public func withJSONBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var json = ""
        appendJSON(to: &json)
        return json.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }
}

/// Decimal digits of an integer written right to left into a stack buffer: an output's
/// number needs no `String`.
@usableFromInline
enum DecimalDigits {
    /// Room for any `Int64`, its sign included.
    @usableFromInline
    static let capacity = 20

    @inlinable
    static func withText<Result>(_ value: Int64, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 1) { buffer in
            var magnitude = value.magnitude
            var start = capacity
            repeat {
                start -= 1
                buffer[start] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
                magnitude /= 10
            } while magnitude != 0
            if value < 0 {
                start -= 1
                buffer[start] = 0x2D  // -
            }
            return body(UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }
}

extension Bool: JSONValueEncodable {
    /// `true` or `false`.
    public func appendJSON(to json: inout String) {
        json.append(self ? "true" : "false")
    }

    /// `true` or `false`, from static text.
    @inlinable
    public func withJSONBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let text: StaticString = self ? "true" : "false"
        return body(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
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

    /// The decimal digits, written into the stack.
    @inlinable
    public func withJSONBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        DecimalDigits.withText(Int64(self), body)
    }
}

extension Int64: JSONValueEncodable {
    /// A JSON integer in decimal, exactly.
    public func appendJSON(to json: inout String) {
        json.append(String(self))
    }

    /// The decimal digits, written into the stack.
    @inlinable
    public func withJSONBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        DecimalDigits.withText(Int64(self), body)
    }
}

extension Int128: JSONValueEncodable {
    /// A JSON integer in decimal, exactly (JSON numbers have no size limit; readers that
    /// use doubles round beyond 2^53).
    public func appendJSON(to json: inout String) {
        json.append(String(self))
    }

    /// The decimal digits, written into the stack when the value fits in 64 bits.
    @inlinable
    public func withJSONBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if let small = Int64(exactly: self) { return DecimalDigits.withText(small, body) }
        var json = String(self)
        return json.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }
}
