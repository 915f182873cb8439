import RxSwift

/// One output stream of a view model as it appears on the wire: its name and how
/// each element is written (`{"output":"<name>","value":<element as JSON>}`).
public struct WireOutput<Output> {
    /// The output's name in messages.
    public let name: String
    /// How each element is written, kept by the view model for its first two outputs' observers.
    @usableFromInline
    let description: WireOutputDescription
    /// Subscribes the output of one session: each element becomes a message for `sink`,
    /// an error goes to it as a failure; while someone watches the session, every event is
    /// also recorded by the sink as a marble of this output's lane. `index`: the output's
    /// place among the view model's outputs; the sink knows the first two's descriptions.
    /// Returns the subscription as an object (`nil`: nothing to dispose), which the session
    /// keeps without a cast.
    @usableFromInline
    let bind: (_ output: Output, _ sink: SessionOutputSink, _ index: Int) -> (AnyObject & Disposable)?

    /// The output named `name`, read from `stream` of the view model's `Output`: an
    /// `Observable`, a `Driver`, a `Signal`, an `Infallible` of a scalar the server writes
    /// itself (`Bool`, `String`, `Int`, `Int64`, `Int128`, …).
    ///
    /// Inlinable, so the app's module specializes the observer for its element type: each
    /// element is then written without generic metadata look-ups.
    @inlinable
    public init<Stream: ObservableConvertibleType>(_ name: String, _ stream: KeyPath<Output, Stream>)
    where Stream.Element: JSONValueEncodable {
        self.name = name
        let description = WireOutputDescription(name: name)
        self.description = description
        let read = Self.reader(stream)
        bind = { output, sink, index in
            let observable = read(output).asObservable()
            // A closure that captures one object has that object as its context: the first two
            // outputs are observed without an observer object per session (40 bytes, and an
            // allocation of a login session).
            if index == 0 {
                return observable.subscribeObject(anyObserver: AnyObserver { [sink] event in
                    sink.firstOutput._withUnsafeGuaranteedRef { sink.deliver(event, of: $0) }
                })
            }
            if index == 1 {
                return observable.subscribeObject(anyObserver: AnyObserver { [sink] event in
                    sink.secondOutput._withUnsafeGuaranteedRef { sink.deliver(event, of: $0) }
                })
            }
            return observable.subscribeObject(anyObserver: WireOutputObserver(description, sink: sink).asObserver())
        }
    }

    /// The output named `name`, read from `stream` of the view model's `Output`, of any
    /// `Encodable` element (an enum, a struct, an array, an optional): each element is
    /// written as Swift's `Codable` JSON (shapes in PROTOCOL.md).
    @_disfavoredOverload
    public init<Stream: ObservableConvertibleType>(_ name: String, _ stream: KeyPath<Output, Stream>)
    where Stream.Element: Encodable {
        self.init(name, stream, map: { $0 })
    }

    /// The output named `name`, each element of `stream` written as the `Encodable` value
    /// `map` makes of it: how an element of a type that is not `Encodable` is sent (a type
    /// of another module cannot be made `Encodable` outside its own file), or one whose wire
    /// shape differs from its Swift shape.
    ///
    ///     WireOutput("validatedUsername", \.validatedUsername) { result in result.description }
    public init<Stream: ObservableConvertibleType, Value: Encodable>(
        _ name: String, _ stream: KeyPath<Output, Stream>, map: @escaping (Stream.Element) -> Value
    ) {
        self.name = name
        let description = WireOutputDescription(name: name)
        self.description = description
        let read = Self.reader(stream)
        bind = { output, sink, _ in
            read(output).asObservable().subscribeObject(
                anyObserver: EncodableWireOutputObserver(description, sink: sink, map: map).asObserver())
        }
    }

    /// An output whose element is not `Encodable` and has no `map`: refused at compile time
    /// with a message that says what to do (without it, the error named an internal protocol).
    @available(*, unavailable, message: "an output's element must be Encodable: make it Encodable, or pass map: { element in ... } returning an Encodable value")
    public init<Stream: ObservableConvertibleType>(_ name: String, _ stream: KeyPath<Output, Stream>) {
        fatalError("unavailable")
    }
}

extension WireOutput {
    /// Reads `stream` out of an `Output`: a load at its offset when it is a stored property
    /// of a struct (the usual `Output`), the key path otherwise. Projecting through a key path
    /// runs the runtime's generic code, about 400 instructions an output and session.
    @inlinable
    static func reader<Stream>(_ stream: KeyPath<Output, Stream>) -> (Output) -> Stream {
        guard let offset = MemoryLayout<Output>.offset(of: stream) else {
            return { $0[keyPath: stream] }
        }
        return { output in
            withUnsafeBytes(of: output) { $0.load(fromByteOffset: offset, as: Stream.self) }
        }
    }
}

/// Where a session's output messages go: the session, its one subclass, whose methods these
/// call. A class rather than a protocol so that it is one reference: a closure capturing it
/// alone needs no context of its own (the first output's observer, `WireOutput`).
@usableFromInline
class SessionOutputSink {
    init() {}

    private var session: Session { unsafeDowncast(self, to: Session.self) }

    /// One output element as its message.
    @usableFromInline
    final func output(_ message: String) { session.sendOutput(message) }
    /// One output element as its message in UTF-8 (valid during the call).
    @usableFromInline
    final func output(utf8 message: UnsafeRawBufferPointer) { session.sendOutput(utf8: message) }
    /// The output stream failed.
    @usableFromInline
    final func failed(_ error: Error) { session.outputFailed(error) }
    /// Whether a viewer or a recording may want the session's events: one atomic load.
    @usableFromInline
    final var hasTrace: Bool { session.isTraced }
    /// An output element as its message (UTF-8, valid during the call) for a viewer on the
    /// dashboard and a recording, whichever the session has, and then for the client.
    @usableFromInline
    final func recordedOutput(utf8 message: UnsafeRawBufferPointer, of description: WireOutputDescription) {
        session.sendTracedOutput(utf8: message, of: description)
    }
    /// An output's failure, for a viewer and a recording.
    @usableFromInline
    final func recorded(_ error: Error, of description: WireOutputDescription) { session.recordOutput(description, failed: error) }
    /// An output's completion, for a viewer.
    @usableFromInline
    final func recordedCompletion(of description: WireOutputDescription) { session.recordOutputCompleted(description) }
    /// Writes `event` of the output `description` to the session: what an output's observer
    /// does, the first output's (a closure over the sink alone) too. A generic method of this
    /// non-generic class, so that code left unspecialised calls it without looking up the
    /// metadata of a generic type.
    @inlinable
    final func deliver<Element: JSONValueEncodable>(_ event: Event<Element>, of description: WireOutputDescription) {
        switch event {
        case .next(let element):
            // Told first, so that an untraced session's message takes the short closure.
            if hasTrace {
                description.template.withMessage(element) { recordedOutput(utf8: $0, of: description) }
            } else {
                description.template.withMessage(element) { output(utf8: $0) }
            }
        case .error(let error):
            recorded(error, of: description)
            failed(error)
        case .completed:
            recordedCompletion(of: description)
        }
    }

    /// The view model's first output (which has one while the sink has an observer),
    /// unretained: the endpoint's view model keeps it as long as the session keeps the
    /// endpoint, so a message costs no retain and release for it.
    @usableFromInline
    final var firstOutput: Unmanaged<WireOutputDescription> {
        .passUnretained(session.endpoint.wire.firstOutput.unsafelyUnwrapped)
    }

    /// The view model's second output, as `firstOutput`.
    @usableFromInline
    final var secondOutput: Unmanaged<WireOutputDescription> {
        .passUnretained(session.endpoint.wire.secondOutput.unsafelyUnwrapped)
    }
}

/// An output's name and message template, made once per output and shared by its sessions.
@usableFromInline
final class WireOutputDescription: Sendable {
    @usableFromInline
    let name: String
    @usableFromInline
    let template: OutputMessageTemplate

    @usableFromInline
    init(name: String) {
        self.name = name
        template = OutputMessageTemplate(output: name)
    }
}

/// Writes one output stream's elements as messages to the session, and records each event
/// as a marble into the session's `Tap` while a viewer watches (as a `tap` operator on the
/// stream would, without its sink and disposer): one object per output and session, where
/// `tap(...).subscribe(onNext:onError:)` would make four; the first output has none, its
/// observer being a closure over the session (`SessionOutputSink.deliver`).
@usableFromInline
final class WireOutputObserver<Element: JSONValueEncodable>: ObserverType {
    @usableFromInline
    let description: WireOutputDescription
    /// Strong, not weak (no side table per session): the session's `close()` disposes this
    /// subscription, which lets the observer go, and drops a late event itself.
    @usableFromInline
    let sink: SessionOutputSink

    @inlinable
    init(_ description: WireOutputDescription, sink: SessionOutputSink) {
        self.description = description
        self.sink = sink
    }

    @inlinable
    func on(_ event: Event<Element>) {
        sink.deliver(event, of: description)
    }
}

/// Writes one output stream as messages, each element mapped to an `Encodable` value and
/// written with `JSONEncoder`, and records its marbles like `WireOutputObserver`. A value that
/// cannot be encoded (a non-finite `Double`) fails the output: that is a bug of the view
/// model, not the client's.
private final class EncodableWireOutputObserver<Element, Value: Encodable>: ObserverType {
    private let description: WireOutputDescription
    private let sink: SessionOutputSink
    private let map: (Element) -> Value

    init(_ description: WireOutputDescription, sink: SessionOutputSink, map: @escaping (Element) -> Value) {
        self.description = description
        self.sink = sink
        self.map = map
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let json: String
            do {
                json = try WireJSON.encode(map(element))
            } catch {
                sink.recorded(error, of: description)
                sink.failed(error)
                return
            }
            description.template.withMessage(RawJSON(json)) { sink.recordedOutput(utf8: $0, of: description) }
        case .error(let error):
            sink.recorded(error, of: description)
            sink.failed(error)
        case .completed:
            sink.recordedCompletion(of: description)
        }
    }
}

/// JSON text already made, written as it is.
private struct RawJSON: JSONValueEncodable {
    let text: String
    init(_ text: String) { self.text = text }
    func appendJSON(to json: inout String) { json.append(text) }
}
