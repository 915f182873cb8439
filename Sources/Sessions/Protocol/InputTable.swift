/// The inputs a view model exposes on the wire, and the check that turns a parsed
/// `ClientMessage` into an event for one of them (`unknown_input`, `bad_value`).
public struct InputTable: Sendable {
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
    public func decode(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Result<Event, ProtocolError> {
        ClientMessageReader.read(utf8: bytes).flatMap(resolve)
    }

    /// Checks a parsed message against the inputs: the name must be declared; a text
    /// input needs a string value; a tap must have no value at all (not even `null`); a
    /// value input needs a value (its type is checked when it is decoded).
    public func resolve(_ message: ClientMessage) -> Result<Event, ProtocolError> {
        Result { () throws(ProtocolError) -> Event in try event(of: message) }
    }

    /// `decode(utf8:)` for the session's path, with a typed throw (no `Result` to copy).
    func event(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(ProtocolError) -> Event {
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
