/// The inputs a view model exposes on the wire, and the check that turns a parsed
/// `ClientMessage` into an event for one of them (`unknown_input`, `bad_value`).
///
/// A class, though immutable: a session reads it once per message, and a struct of five
/// arrays and strings was copied there with a retain and a release of each.
@_spi(Protocol) public final class InputTable: Sendable {
    /// One input event, ready to be fed to the input's subject.
    public struct Event: Sendable, Equatable {
        /// What the event carries.
        public enum Payload: Sendable, Equatable {
            /// A text input's new value.
            case text(String)
            /// One tap.
            case tap
            /// A value input's value, still to be decoded into its type.
            case value(ClientMessage.Value)
        }
        /// The input's position in declaration order.
        public var index: Int
        /// The event.
        public var payload: Payload
    }

    /// The inputs in declaration order.
    public let inputs: [(name: String, kind: InputKind)]
    private let indexByName: [String: Int]
    private let namesForPeople: String
    /// What a plain message of each input starts with: the plain-message path compares a
    /// message's bytes with these without making a `String` (`InputTable+PlainMessage.swift`).
    let plainHeads: PlainHeads

    /// A table of `inputs`; names must be unique.
    public init(_ inputs: [(name: String, kind: InputKind)]) {
        self.inputs = inputs
        var indexByName: [String: Int] = [:]
        for (index, input) in inputs.enumerated() {
            precondition(indexByName[input.name] == nil, "duplicate input name \(input.name)")
            indexByName[input.name] = index
        }
        self.indexByName = indexByName
        namesForPeople = inputs.map(\.name).joined(separator: ", ")
        plainHeads = PlainHeads(inputs)
    }

    /// The index of the input named `name`: a linear scan for the usual handful of
    /// inputs (comparing small strings is cheaper than hashing them), a dictionary beyond.
    private func index(of name: String) -> Int? {
        if inputs.count <= 8 {
            return inputs.firstIndex { $0.name == name }
        }
        return indexByName[name]
    }

    /// Parses `text` and checks it against the inputs.
    public func decode(_ text: String) -> Result<Event, ProtocolError> {
        ClientMessageReader.read(text).flatMap(resolve)
    }

    /// Parses UTF-8 bytes and checks them against the inputs.
    /// The plain shapes of client messages take a byte-matching shortcut that gives the same answer.
    public func decode(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Result<Event, ProtocolError> {
        Result { () throws(ProtocolError) -> Event in try event(utf8: bytes) }
    }

    /// Checks a parsed message against the inputs: the name must be declared; a text
    /// input needs a string value; a tap must have no value at all (not even `null`); a
    /// value input needs a value (its type is checked when it is decoded).
    public func resolve(_ message: ClientMessage) -> Result<Event, ProtocolError> {
        Result { () throws(ProtocolError) -> Event in try event(of: message) }
    }

    /// `decode(utf8:)` for the session's path, with a typed throw (no `Result` to copy).
    func event(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(ProtocolError) -> Event {
        var isPlain = false
        return try event(utf8: bytes, isPlain: &isPlain)
    }

    /// `event(utf8:)`, telling whether the message had one of the plain shapes
    /// (`InputTable+PlainMessage.swift`): a recording copies such a message as its line.
    @inline(__always)
    func event(utf8 bytes: UnsafeBufferPointer<UInt8>, isPlain: inout Bool) throws(ProtocolError) -> Event {
        if let event = plainEvent(bytes) {
            isPlain = true
            return event
        }
        return try nonPlainEvent(utf8: bytes)
    }

    /// `event(utf8:)` for a message `plainEvent` already found not plain: read as JSON
    /// straight away, not matched as plain a second time.
    func nonPlainEvent(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(ProtocolError) -> Event {
        try event(of: ClientMessageReader.message(utf8: bytes))
    }

    private func event(of message: ClientMessage) throws(ProtocolError) -> Event {
        guard let index = index(of: message.input) else {
            throw ProtocolError(.unknownInput, "no input named \(quotedPrefix(message.input)); the inputs are \(namesForPeople)")
        }
        let name = inputs[index].name
        switch (inputs[index].kind, message.value) {
        case (.text, .string(let text)):
            return Event(index: index, payload: .text(text))
        case (.text, _):
            throw ProtocolError(.badValue, "\"\(name)\" is a text input: its \"value\" must be a string")
        case (.tap, .absent):
            return Event(index: index, payload: .tap)
        case (.tap, _):
            throw ProtocolError(.badValue, "\"\(name)\" is a tap: send it without a \"value\"")
        case (.value, .absent):
            throw ProtocolError(.badValue, "\"\(name)\" needs a \"value\"")
        case (.value, let value):
            return Event(index: index, payload: .value(value))
        }
    }
}

/// Whether `count` bytes at `a` and at `b` are the same: names and keys are short, so
/// words are compared, the last one overlapping the one before rather than bytes one by one.
func bytesEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    let a = UnsafeRawPointer(a), b = UnsafeRawPointer(b)
    func same<Word: FixedWidthInteger>(_: Word.Type, at offset: Int) -> Bool {
        a.loadUnaligned(fromByteOffset: offset, as: Word.self) == b.loadUnaligned(fromByteOffset: offset, as: Word.self)
    }
    switch count {
    case 8...:
        var offset = 0
        while offset + 8 < count {
            guard same(UInt64.self, at: offset) else { return false }
            offset += 8
        }
        return same(UInt64.self, at: count - 8)
    case 4...:
        return same(UInt32.self, at: 0) && same(UInt32.self, at: count - 4)
    case 2...:
        return same(UInt16.self, at: 0) && same(UInt16.self, at: count - 2)
    case 1:
        return same(UInt8.self, at: 0)
    default:
        return true
    }
}
