import EventLoop
import RxSwift

/// Hands out the input streams of one session, one subject per declared input, and
/// records the declarations (name, kind, tap limit) in the order they are asked for.
///
/// A `WireViewModel` calls its input closure with a `WireInputs` once when it is
/// declared (to learn the inputs) and once per session (to get that session's subjects),
/// so the inputs are written in exactly one place.
public final class WireInputs {
    /// What one input accepts.
    struct Declaration: Equatable, Sendable {
        let name: String
        let kind: InputKind
        let limit: RateLimit?
        /// A secret's values are never shown to a viewer of the session, only their length.
        var secret = false
        /// A text input's initial value, if it declares one.
        var initial: String? = nil
    }

    /// Where one input's events go.
    enum Feed {
        case text(InlinePublishSubject<String>)
        case observedText(ObservedTextFeed)
        case initialText(InitialTextFeed)
        case tap(InlinePublishSubject<Void>)
        case limitedTap(LimitedTapFeed)
        case value(WireValueFeed)
    }

    // Used by the one thread that declares the inputs or builds a session, within that
    // call: no dynamic exclusivity check (six per session).
    @exclusivity(unchecked) private(set) var declarations: [Declaration] = []
    @exclusivity(unchecked) private var feeds = CollectedFeeds()
    /// The session's client: its address, and a way to tell it an error.
    public let client: WireClient
    /// False for a session's inputs in a release build: only the debug check that every
    /// session declares the same inputs reads them again (each session's arrays grew three
    /// times).
    private let recordsDeclarations: Bool

    /// Inputs being declared: every declaration is recorded.
    init(client: WireClient = WireClient()) {
        self.client = client
        recordsDeclarations = true
    }

    /// One session's inputs, of a view model that declared `count`.
    init(client: WireClient, count: Int, recordsDeclarations: Bool) {
        self.client = client
        self.recordsDeclarations = recordsDeclarations
        if recordsDeclarations { declarations.reserveCapacity(count) }
    }

    /// The session's feeds, moved out (no retain and release each): the inputs hold none after.
    func takeFeeds() -> CollectedFeeds {
        var taken = CollectedFeeds()
        swap(&taken, &feeds)
        return taken
    }

    private func declare(_ declaration: @autoclosure () -> Declaration, _ feed: Feed) {
        if recordsDeclarations { declarations.append(declaration()) }
        feeds.append(feed)
    }

    /// A text input: every message's string value, like `rx.text.orEmpty`.
    /// - Parameters:
    ///   - name: the input's name in messages.
    ///   - secret: a password, say: a viewer of the session sees each value's length only.
    ///   - initial: the value the view model sees when the session opens, before any message
    ///     (as `rx.text.orEmpty` starts with the field's text); the input then passes on a
    ///     client's value only when it differs from the last one (PROTOCOL.md, "First values").
    ///     `nil`: nothing until the client sends a value, and every value passed on.
    public func text(_ name: String, secret: Bool = false, initial: String? = nil) -> Observable<String> {
        if let initial { return initialText(name, secret: secret, initial: initial, onValue: nil) }
        let subject = InlinePublishSubject<String>()
        declare(Declaration(name: name, kind: .text, limit: nil, secret: secret), .text(subject))
        return subject.asObservable()
    }

    /// A text input whose accepted values are also handed to `onValue`, each just before the
    /// view model sees it (on the session's loop): how a binding learns an input's latest
    /// value (a login's credentials, for its service) without an operator in the graph, which
    /// `.do(onNext:)` would be, once for each subscription to the input.
    /// - Parameters:
    ///   - name: the input's name in messages.
    ///   - secret: a password, say: a viewer of the session sees each value's length only.
    ///   - initial: as for `text(_:secret:initial:)`; `onValue` gets it first, when the session opens.
    ///   - onValue: called with each value the input accepts.
    public func text(_ name: String, secret: Bool = false, initial: String? = nil,
                     onValue: @escaping (String) -> Void) -> Observable<String> {
        if let initial { return initialText(name, secret: secret, initial: initial, onValue: onValue) }
        let feed = ObservedTextFeed(onValue: onValue)
        declare(Declaration(name: name, kind: .text, limit: nil, secret: secret), .observedText(feed))
        return feed.subject.asObservable()
    }

    private func initialText(_ name: String, secret: Bool, initial: String, onValue: ((String) -> Void)?) -> Observable<String> {
        let feed = InitialTextFeed(initial: initial, onValue: onValue)
        declare(Declaration(name: name, kind: .text, limit: nil, secret: secret, initial: initial), .initialText(feed))
        return feed.subject.asObservable()
    }

    /// A value input of any `Decodable` type: each message's `"value"` decoded from JSON
    /// (a number, a boolean, an optional, an enum, a struct, an array; shapes in
    /// PROTOCOL.md). A value that does not decode is refused with `bad_value` naming the
    /// input and its type, and the session goes on.
    /// - Parameters:
    ///   - name: the input's name in messages.
    ///   - type: the type each value decodes into (usually inferred).
    ///   - secret: a viewer of the session sees each value's length only.
    public func value<Value: Decodable>(_ name: String, as type: Value.Type = Value.self, secret: Bool = false) -> Observable<Value> {
        let feed = TypedWireValueFeed<Value>()
        declare(Declaration(name: name, kind: .value, limit: nil, secret: secret), .value(feed))
        return feed.subject.asObservable()
    }

    /// A value input whose messages carry a `Wire` value (any `Decodable`), which `decode`
    /// turns into the view model's `Value`: for an input of a type that is not `Decodable`
    /// (a type of another module), or with rules of its own. A value that does not decode as
    /// `Wire`, or that `decode` throws on, is refused with `bad_value` and the session goes on.
    ///
    ///     wire.value("plan", as: String.self) { name in try Plan(parsing: name) }
    /// - Parameters:
    ///   - name: the input's name in messages.
    ///   - wire: the type each message's value decodes into (usually inferred from `decode`).
    ///   - secret: a viewer of the session sees each value's length only.
    ///   - decode: makes the view model's value; what it throws is described in the refusal.
    public func value<Wire: Decodable, Value>(_ name: String, as wire: Wire.Type = Wire.self, secret: Bool = false,
                                              decode: @escaping (Wire) throws -> Value) -> Observable<Value> {
        let feed = MappedWireValueFeed<Wire, Value>(decode: decode)
        declare(Declaration(name: name, kind: .value, limit: nil, secret: secret), .value(feed))
        return feed.subject.asObservable()
    }

    /// A tap input: one element per message without a value, like `rx.tap`.
    /// - Parameters:
    ///   - name: the input's name in messages.
    ///   - limit: at most this many taps per session (`rate_limited` beyond it).
    public func tap(_ name: String, limit: RateLimit? = nil) -> Observable<Void> {
        if let limit {
            let feed = LimitedTapFeed(limit: limit)
            declare(Declaration(name: name, kind: .tap, limit: limit), .limitedTap(feed))
            return feed.subject.asObservable()
        }
        let subject = InlinePublishSubject<Void>()
        declare(Declaration(name: name, kind: .tap, limit: limit), .tap(subject))
        return subject.asObservable()
    }
}

/// The client of one session, as a view model's service may need it.
///
/// A class, so that the graph's services and contexts share one (a retain each). It holds
/// its session strongly, as the graph holds it: `close()` lets both go.
public final class WireClient: Sendable {
    /// The client's IP address: the peer's, or from `X-Forwarded-For` when the peer is a
    /// trusted proxy. Empty while declaring inputs.
    public var address: String { peerAddress.text }
    /// `address` as the connection gave it, written as text when read.
    private let peerAddress: PeerAddress
    /// Who the session is signed in as (a session cookie or bearer token at the upgrade);
    /// nil for nobody. Always set for a view model declared with `access: .signedIn`.
    public let user: SignedInUser?
    /// The session this is the client of; nil while declaring inputs, where nothing is sent.
    private let session: Session?
    /// Where `answers(_:_:)` records the services' answers (`--record`) or replays them; nil
    /// otherwise.
    let answers: (any ServiceAnswering)?

    init(address: PeerAddress = PeerAddress(""), user: SignedInUser? = nil, session: Session? = nil,
         answers: (any ServiceAnswering)? = nil) {
        peerAddress = address
        self.user = user
        self.session = session
        self.answers = answers
    }

    /// Sends `{"error":…}` to this session (from any thread; nothing once it has closed).
    public func refuse(_ error: ProtocolError) {
        session?.refuseFromService(error)
    }

    /// Sends a message the session composed (from any thread; nothing once it has closed).
    func send(_ message: String) {
        session?.sendOutput(message)
    }

    /// Tells the client that `user` logged in, with the one-time `code` it redeems for its
    /// session cookie (`{"signIn":…}`, PROTOCOL.md "Signing in"). From any thread.
    public func announceSignIn(user: String, code: String) {
        send(ServerMessageWriter.signIn(user: user, code: code))
    }
}
