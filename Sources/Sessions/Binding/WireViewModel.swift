import RxSwift

/// A view model as exposed on the wire: a name, its inputs (declared once, in the
/// input closure) and its outputs. One `WireViewModel` serves every session of its
/// endpoint, `/ws/<name>`.
public struct WireViewModel {
    /// The view model's name: the endpoint `/ws/<name>` and `ready.viewModel`.
    public let name: String
    /// The inputs, for decoding client messages and for the `ready` message.
    @_spi(Protocol) public let inputs: InputTable
    /// The outputs' names in declaration order, for the `ready` message.
    let outputNames: [String]
    /// Each input's tap limit, by input index.
    let tapLimits: [RateLimit?]
    /// Who may open a session.
    public let access: WireAccess
    /// The lanes a viewer of a session sees: the inputs, then the outputs.
    let lanes: [MarbleLane]
    /// Which inputs are secret, by input index.
    let secretInputs: [Bool]
    /// Whether any input has a tap limit (sessions keep token buckets only then).
    let hasTapLimits: Bool
    /// Builds one session's graph; its outputs send their messages to `sink` and record their
    /// marbles with it.
    let build: (_ client: WireClient, _ sink: SessionOutputSink) -> SessionGraph
    /// The first output's name and template, which its observer reads from the session.
    let firstOutput: WireOutputDescription?
    /// The second output's, read likewise by its observer.
    let secondOutput: WireOutputDescription?
    /// Whether `--record` records its sessions (`notRecorded()` says no).
    var isRecorded = true
    /// Each input's declaration (its kind, whether it is secret), for a recording's header.
    let inputDeclarations: [WireInputs.Declaration]

    /// Declares a view model on the wire.
    ///
    ///     WireViewModel(
    ///         name: "sum",
    ///         transform: { SumViewModel().transform(input: $0) },
    ///         input: { wire in SumViewModel.Input(number1: wire.text("number1"), number2: wire.text("number2")) },
    ///         outputs: [WireOutput("sum", \.sum)])
    ///
    /// - Parameters:
    ///   - name: the endpoint and `ready.viewModel`.
    ///   - access: who may open a session (default: everyone).
    ///   - transform: makes one session's view model and runs its `transform` over the inputs.
    ///   - input: builds the view model's `Input` from `WireInputs` (`text(_:)`, `value(_:)`,
    ///     `tap(_:limit:)`); the calls it makes declare the inputs, in order.
    ///   - outputs: the outputs, in the order `ready` lists them.
    public init<Input, Output>(
        name: String,
        access: WireAccess = .everyone,
        transform: @escaping (Input) -> Output,
        input: @escaping (WireInputs) -> Input,
        outputs: [WireOutput<Output>]
    ) {
        self.init(name: name, access: access, declare: { _ = input($0) }, makeOutput: { wire, _ in transform(input(wire)) },
                  outputs: outputs)
    }

    /// Declares a view model on the wire with a per-session `context`, made from the client
    /// (its address, a way to send it errors) once per session and handed to both the view
    /// model and its inputs: what the binding learns from the inputs (a login's latest
    /// credentials) reaches the view model's services without touching its `transform`.
    public init<Context, Input, Output>(
        name: String,
        access: WireAccess = .everyone,
        context: @escaping (WireClient) -> Context,
        transform: @escaping (Context, Input) -> Output,
        input: @escaping (WireInputs, Context) -> Input,
        outputs: [WireOutput<Output>]
    ) {
        self.init(name: name, access: access, declare: { wire in _ = input(wire, context(wire.client)) },
                  makeOutput: { wire, client in
                      let session = context(client)
                      return transform(session, input(wire, session))
                  },
                  outputs: outputs)
    }

    /// The two public initialisers' work: `declare` calls the input closure once to learn the
    /// inputs; `makeOutput` runs once per session (its context, its inputs, `transform`).
    /// One closure each, so a session's graph is built through two calls of this generic code
    /// (which runs unspecialised) rather than through wrappers of wrappers.
    private init<Output>(
        name: String,
        access: WireAccess,
        declare: (WireInputs) -> Void,
        makeOutput: @escaping (WireInputs, WireClient) -> Output,
        outputs: [WireOutput<Output>]
    ) {
        let declaring = WireInputs()
        declare(declaring)
        let declarations = declaring.declarations
        self.name = name
        inputs = InputTable(declarations.map { (name: $0.name, kind: $0.kind) })
        outputNames = outputs.map(\.name)
        tapLimits = declarations.map(\.limit)
        hasTapLimits = declarations.contains { $0.limit != nil }
        firstOutput = outputs.first?.description
        secondOutput = outputs.count > 1 ? outputs[1].description : nil
        self.access = access
        secretInputs = declarations.map(\.secret)
        inputDeclarations = declarations
        lanes = declarations.map { MarbleLane(name: $0.name, role: .input, shape: $0.secret ? .secret : $0.kind == .tap ? .tap : .value) }
            + outputs.map { MarbleLane(name: $0.name, role: .output, shape: .value) }
        var checksDeclarations = false
        assert({ checksDeclarations = true; return true }())
        let bindAll = Self.bindingAll(outputs)
        build = { [checksDeclarations] client, sink in
            let wire = WireInputs(client: client, count: declarations.count, recordsDeclarations: checksDeclarations)
            let output = makeOutput(wire, client)
            assert(wire.declarations == declarations, "the input closure of \(name) must declare the same inputs every time")
            var subscriptions = CollectedSubscriptions()
            bindAll(output, sink, &subscriptions)
            return SessionGraph(feeds: wire.takeFeeds(), subscriptions: subscriptions)
        }
    }

    /// One closure that subscribes every output in order, each to its `bind`, and collects the
    /// subscriptions; the first two are those whose descriptions the session finds. Made
    /// once per view model: a session's build then walks no array of `WireOutput<Output>`,
    /// which in this unspecialised code looked up the metadata of the array and its elements
    /// and copied each output through generic value witnesses.
    private static func bindingAll<Output>(_ outputs: [WireOutput<Output>])
        -> (Output, SessionOutputSink, inout CollectedSubscriptions) -> Void {
        var bindAll: (Output, SessionOutputSink, inout CollectedSubscriptions) -> Void = { _, _, _ in }
        for (index, output) in outputs.enumerated().reversed() {
            let bind = output.bind
            let rest = bindAll
            bindAll = { output, sink, subscriptions in
                if let subscription = bind(output, sink, index) {
                    subscriptions.append(subscription)
                }
                rest(output, sink, &subscriptions)
            }
        }
        return bindAll
    }
}

/// Who may open sessions of a view model.
public enum WireAccess: Sendable, Equatable {
    /// Anyone who may open a WebSocket on the server.
    case everyone
    /// Only a client that presents the server's admin token (`?token=` on the WebSocket
    /// URL); the endpoint does not exist while the server has no admin token.
    case adminToken
    /// Only a signed-in user (a session cookie or `Authorization: Bearer`); anyone else's
    /// upgrade is answered `401`. The view model finds the user in `WireClient.user`.
    case signedIn
}
