/// A value that an output stream can put on the wire as the `"value"` of an output message.
public protocol JSONValueEncodable {
    /// Appends this value as JSON text.
    func appendJSON(to json: inout String)

    /// Calls `body` with this value's JSON text as UTF-8 (valid during the call). The
    /// default goes through `appendJSON(to:)`; integers and booleans write into the stack.
    func withJSONBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result

    /// Calls `body` with `head`, this value's JSON text and a closing `}` as one piece of
    /// UTF-8 (valid during the call): an output message. The default joins `withJSONBytes`'s
    /// text to the head; integers write their digits straight after it.
    func withJSONMessage<Result>(head: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Result) -> Result
}

extension JSONValueEncodable {
    /// The JSON text of `appendJSON(to:)`, as UTF-8.
    @inlinable
    public func withJSONBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var json = ""
        appendJSON(to: &json)
        return json.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    /// `head`, the JSON text of `withJSONBytes` and `}`, joined in the stack.
    @inlinable
    public func withJSONMessage<Result>(head: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withJSONBytes { DecimalDigits.join(head, $0, body) }
    }
}

/// Decimal digits of an integer written right to left into a stack buffer: an output's
/// number needs no `String`.
@usableFromInline
enum DecimalDigits {
    /// `head`, `value` and `}` joined in the stack: the message of a value that is not a
    /// 64-bit integer.
    @inlinable
    static func join<Result>(_ head: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer,
                             _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeTemporaryAllocation(byteCount: head.count + value.count + 1, alignment: 1) { buffer in
            buffer.copyMemory(from: head)
            UnsafeMutableRawBufferPointer(rebasing: buffer[head.count...]).copyMemory(from: value)
            buffer[buffer.count - 1] = 0x7D  // }
            return body(UnsafeRawBufferPointer(buffer))
        }
    }

    /// Room for any `Int64`, its sign included.
    @usableFromInline
    static let capacity = 20

    /// Writes `value`'s decimal text to end just before `end`; returns where it starts.
    @inlinable @inline(__always)
    static func write(_ value: Int64, before end: Int, in buffer: UnsafeMutableRawBufferPointer) -> Int {
        var magnitude = value.magnitude
        var start = end
        // Two digits a step, from a table of the hundred pairs: half the divisions.
        let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
        while magnitude >= 10 {
            let pair = Int(truncatingIfNeeded: magnitude % 100) &* 2
            magnitude /= 100
            start -= 2
            buffer[start] = pairs.utf8Start[pair]
            buffer[start + 1] = pairs.utf8Start[pair + 1]
        }
        if magnitude != 0 || start == end {
            start -= 1
            buffer[start] = UInt8(truncatingIfNeeded: magnitude) &+ 0x30
        }
        if value < 0 {
            start -= 1
            buffer[start] = 0x2D  // -
        }
        return start
    }

    @inlinable
    static func withText<Result>(_ value: Int64, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 1) { buffer in
            let start = write(value, before: capacity, in: buffer)
            return body(UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// `head`, the digits of `value` and `}` in one stack buffer: the digits are written
    /// right to left before the `}`, then the head before them, so nothing is copied twice.
    @inlinable @inline(__always)
    static func withMessage<Result>(head: UnsafeRawBufferPointer, _ value: Int64,
                                    _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeTemporaryAllocation(byteCount: head.count + capacity + 1, alignment: 1) { buffer in
            buffer[buffer.count - 1] = 0x7D  // }
            let start = write(value, before: buffer.count - 1, in: buffer) - head.count
            UnsafeMutableRawBufferPointer(rebasing: buffer[start...]).copyMemory(from: head)
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

    /// The message with the digits written straight after the head.
    @inlinable
    public func withJSONMessage<Result>(head: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        DecimalDigits.withMessage(head: head, Int64(self), body)
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

    /// The message with the digits written straight after the head.
    @inlinable
    public func withJSONMessage<Result>(head: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        DecimalDigits.withMessage(head: head, Int64(self), body)
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

    /// The message with the digits written straight after the head when the value fits in 64 bits.
    @inlinable @inline(__always)
    public func withJSONMessage<Result>(head: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if let small = Int64(exactly: self) { return DecimalDigits.withMessage(head: head, small, body) }
        return withJSONBytes { DecimalDigits.join(head, $0, body) }
    }
}
