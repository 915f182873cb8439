import Rx
import ViewModels

/// A view model as exposed on the wire: a name, its inputs (declared once, in the
/// input closure) and its outputs. One `WireViewModel` serves every session of its
/// endpoint, `/ws/<name>`.
public struct WireViewModel {
    /// The view model's name: the endpoint `/ws/<name>` and `ready.viewModel`.
    public let name: String
    /// The inputs, for decoding client messages and for the `ready` message.
    public let inputs: InputTable
    /// The outputs' names in declaration order, for the `ready` message.
    public let outputNames: [String]
    /// Each input's tap limit, by input index.
    let tapLimits: [RateLimit?]
    /// Builds one session's graph.
    let build: (_ client: WireClient, _ send: @escaping (String) -> Void, _ fail: @escaping (Error) -> Void) -> SessionGraph

    /// Declares a view model on the wire.
    /// - Parameters:
    ///   - name: the endpoint and `ready.viewModel`.
    ///   - viewModel: makes the view model of one session.
    ///   - input: builds the view model's `Input` from `WireInputs` (`text(_:)`, `tap(_:limit:)`);
    ///     the calls it makes declare the inputs, in order.
    ///   - outputs: the outputs, in the order `ready` lists them.
    public init<ViewModel: ViewModelType>(
        name: String,
        viewModel: @escaping () -> ViewModel,
        input: @escaping (WireInputs) -> ViewModel.Input,
        outputs: [WireOutput<ViewModel.Output>]
    ) {
        self.init(name: name, viewModel: { (_: WireClient) in viewModel() }, input: input, outputs: outputs)
    }

    /// Declares a view model on the wire whose making needs the session's client (its
    /// address, a way to send it errors): a login service, say.
    public init<ViewModel: ViewModelType>(
        name: String,
        viewModel: @escaping (WireClient) -> ViewModel,
        input: @escaping (WireInputs) -> ViewModel.Input,
        outputs: [WireOutput<ViewModel.Output>]
    ) {
        self.init(name: name, context: { $0 }, viewModel: viewModel, input: { wire, _ in input(wire) }, outputs: outputs)
    }

    /// Declares a view model on the wire with a per-session `context`, made from the client
    /// once per session and handed to both the view model and its inputs: what the binding
    /// learns from the inputs (the login's latest credentials) reaches the view model's
    /// services without touching its `transform`.
    public init<ViewModel: ViewModelType, Context>(
        name: String,
        context: @escaping (WireClient) -> Context,
        viewModel: @escaping (Context) -> ViewModel,
        input: @escaping (WireInputs, Context) -> ViewModel.Input,
        outputs: [WireOutput<ViewModel.Output>]
    ) {
        let declaring = WireInputs()
        _ = input(declaring, context(declaring.client))
        let declarations = declaring.declarations
        self.name = name
        inputs = InputTable(declarations.map { (name: $0.name, kind: $0.kind) })
        outputNames = outputs.map(\.name)
        tapLimits = declarations.map(\.limit)
        build = { client, send, fail in
            let wire = WireInputs(client: client)
            let session = context(client)
            let output = viewModel(session).transform(input: input(wire, session))
            assert(wire.declarations == declarations, "the input closure of \(name) must declare the same inputs every time")
            let subscriptions = outputs.map { $0.bind(output, send, fail) }
            return SessionGraph(feeds: wire.feeds, subscriptions: subscriptions)
        }
    }
}

/// One session's running graph: the input subjects and the output subscriptions.
struct SessionGraph {
    let feeds: [WireInputs.Feed]
    let subscriptions: [Disposable]
}
