import FoundationEssentials
import Glibc
import Logging
import RxSwift

/// One session of a view model run without a server or a connection: the same declaration,
/// the same message decoding and the same graph as a live session, fed messages by a test or
/// a replay and watched through its outputs. Run it on virtual time by making a
/// `TestScheduler` the main scheduler's host (`MainScheduler.setHost(_:)`).
///
///     let session = OfflineSession(viewModel)
///     let sum = scheduler.createObserver(String.self)
///     _ = session.output("sum").subscribe(sum)
///     session.open()
///     _ = session.feed(["number1": .text(scheduler.createHotObservable([.next(10, "1")]))])
///     scheduler.start()
public final class OfflineSession {
    private let session: Session
    private let answers: (any ServiceAnswering)?

    /// A session of `viewModel` whose service calls (`WireClient.answers`) get `answers`
    /// (a recording's, `RecordedAnswers`), or are made as live when nil. No message rate
    /// limit applies; a tap limit does, on the main scheduler's clock.
    public init(_ viewModel: WireViewModel, answers: (any ServiceAnswering)? = nil) {
        var configuration = SessionConfiguration()
        configuration.messageLimit = nil
        let endpoint = SessionEndpoint(
            wire: viewModel, configuration: configuration, metrics: SessionMetrics(viewModels: [viewModel.name]),
            logger: Logger(label: "offline", factory: { _ in SwiftLogNoOpLogHandler() }),
            clock: { UInt64(max(0, MainScheduler.instance.now.timeIntervalSince1970) * 1e9) })
        // No transport: what the session sends goes nowhere, and the outputs are read from its
        // trace. (A transport type of our own here would make every live session's sends calls
        // through a witness table: with one conformer, the compiler calls the connection's.)
        session = Session(endpoint: endpoint)
        self.answers = answers
        _ = session.trace  // made now, so that the outputs' first elements are seen
    }

    /// Opens the session: builds the graph, whose outputs may emit at once.
    public func open() {
        session.open(clientAddress: "127.0.0.1", answers: answers)
    }

    /// Closes the session: the graph is disposed and every output completes.
    public func close() {
        session.close()
    }

    /// Sends one client message (`{"input":…}`, PROTOCOL.md).
    public func send(_ message: String) {
        session.receive(message)
    }

    /// Each element of the output `name` as the JSON text a client would get; the output's
    /// failure as an `OfflineOutputError`. Subscribe before `open()` to see the first elements.
    public func output(_ name: String) -> Observable<String> {
        let events = self.events
        return Observable.create { observer in
            events.filter { $0.lane == name }.subscribe(onNext: { marble in
                switch marble.kind {
                case .next: observer.onNext(marble.label ?? "null")
                case .error: observer.onError(OfflineOutputError(description: marble.label ?? ""))
                case .completed: observer.onCompleted()
                }
            })
        }
    }

    /// Feeds each input's elements as the messages a page sends; disposing stops the feeding.
    public func feed(_ inputs: [String: WireTestInput]) -> Disposable {
        CompositeDisposable(disposables: inputs.sorted { $0.key < $1.key }.map { name, input in
            input.messages(name).subscribe(onNext: { [session] in session.receive($0) })
        })
    }

    /// Every marble of the session, inputs and outputs, as a dashboard viewer sees them.
    var events: Observable<Marble> { session.trace.asObservable() }
}

/// An output's failure in an offline session: the error as described.
public struct OfflineOutputError: Error, Equatable, CustomStringConvertible {
    public let description: String
}

/// What one input of an `OfflineSession` is fed with: any observable (a `TestScheduler`'s
/// hot observable, a subject) of its values.
public struct WireTestInput {
    /// Each element as its client message, given the input's name.
    let messages: (_ name: String) -> Observable<String>

    /// A text input's values.
    public static func text<Values: ObservableConvertibleType>(_ values: Values) -> WireTestInput where Values.Element == String {
        WireTestInput { name in
            values.asObservable().map { value in
                var message = prefix(name) + ",\"value\":"
                message.appendJSONString(value)
                return message + "}"
            }
        }
    }

    /// A value input's values, as JSON text (`"42"`, `"{\"city\":\"Paris\"}"`).
    public static func value<Values: ObservableConvertibleType>(_ values: Values) -> WireTestInput where Values.Element == String {
        WireTestInput { name in values.asObservable().map { prefix(name) + ",\"value\":" + $0 + "}" } }
    }

    /// A tap input's taps.
    public static func tap<Taps: ObservableConvertibleType>(_ taps: Taps) -> WireTestInput where Taps.Element == Void {
        WireTestInput { name in taps.asObservable().map { prefix(name) + "}" } }
    }

    private static func prefix(_ name: String) -> String {
        var prefix = "{\"input\":"
        prefix.appendJSONString(name)
        return prefix
    }
}
