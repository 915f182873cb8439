import Dispatch
import Logging
import Rx

/// One session: one view model's graph bound to one connection.
///
/// Lifecycle: `open()` sends `ready`, builds the graph (a subject per input, `transform`
/// once, every output subscribed into the session's `DisposeBag`); `receive(_:)` feeds
/// a decoded message to its subject or answers an error, leaving the session as it
/// was; `close()` disposes the bag (cancelling a pending login and its timer) and from
/// then on nothing is sent or fed.
///
/// Every method runs on the connection's owner thread (its event loop). Output
/// elements that arrive on another thread (a scheduler that is not the loop's) hop
/// to the owner thread before they touch the session.
final class Session: @unchecked Sendable {  // mutable state is touched only on the transport's owner thread
    private let endpoint: SessionEndpoint
    private let transport: any SessionTransport
    private let idBits = UInt64.random(in: 0...UInt64.max)
    private var state: State = .idle

    /// The session's opaque id, sent in `ready`: 64 random bits in hex.
    var id: String { String(idBits, radix: 16) }

    /// The session's explicit lifecycle.
    private enum State {
        case idle
        case open(Running)
        case closed
    }

    /// What an open session holds.
    private final class Running {
        var feeds: [WireInputs.Feed] = []
        var disposeBag = DisposeBag()
        var messageBucket: TokenBucket?
        var tapBuckets: [TokenBucket?]

        init(messageBucket: TokenBucket?, tapBuckets: [TokenBucket?]) {
            self.messageBucket = messageBucket
            self.tapBuckets = tapBuckets
        }
    }

    init(endpoint: SessionEndpoint, transport: any SessionTransport) {
        self.endpoint = endpoint
        self.transport = transport
    }

    private var wire: WireViewModel { endpoint.wire }
    private var metrics: SessionMetrics { endpoint.metrics }
    private var logger: Logger { endpoint.logger }

    /// Sends `ready`, then builds and subscribes the graph. Only the first call counts.
    func open() {
        guard case .idle = state else { return }
        metrics.sessionOpened(wire.name, loop: endpoint.loop)
        send(endpoint.ready.message(session: id))
        let now = endpoint.clock()
        let running = Running(
            messageBucket: endpoint.configuration.messageLimit.map { TokenBucket($0, now: now) },
            tapBuckets: wire.tapLimits.map { limit in limit.map { TokenBucket($0, now: now) } })
        // Open before subscribing, so elements emitted on subscription are sent.
        state = .open(running)
        let graph = wire.build(
            { [weak self] message in self?.sendOutput(message) },
            { [weak self] error in self?.outputFailed(error) })
        running.feeds = graph.feeds
        for subscription in graph.subscriptions {
            running.disposeBag.insert(subscription)
        }
        logger.debug("session opened", metadata: ["session": "\(id)", "viewModel": "\(wire.name)"])
    }

    /// Handles one client text message.
    func receive(_ text: String) {
        var text = text
        text.withUTF8 { receive(utf8: $0) }
    }

    /// Handles one client text message given as UTF-8 bytes (valid during the call).
    func receive(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard case .open(let running) = state else { return }
        metrics.messageReceived(loop: endpoint.loop)
        // The clock is read only when a limit applies, and at most once per message.
        var reading: UInt64?
        func now() -> UInt64 {
            if let reading { return reading }
            let time = endpoint.clock()
            reading = time
            return time
        }
        if running.messageBucket?.take(now: now()) == false {
            refuse(ProtocolError(.rateLimited, "too many messages; slow down"))
            return
        }
        switch wire.inputs.decode(utf8: bytes) {
        case .failure(let error):
            refuse(error)
        case .success(let event):
            if running.tapBuckets[event.index]?.take(now: now()) == false {
                refuse(ProtocolError(.rateLimited, "too many \"\(wire.inputs.inputs[event.index].name)\" taps; wait a moment"))
                return
            }
            switch (running.feeds[event.index], event.payload) {
            case (.text(let subject), .text(let value)): subject.onNext(value)
            case (.tap(let subject), .tap): subject.onNext(())
            default: assertionFailure("the input table and the feeds disagree on \(event.index)")
            }
        }
    }

    /// Disposes the graph; nothing is sent afterwards. Safe to call more than once.
    func close() {
        guard case .open(let running) = state else {
            state = .closed
            return
        }
        state = .closed
        // Replacing the bag disposes every subscription now, cancelling pending timers.
        running.disposeBag = DisposeBag()
        metrics.sessionClosed(loop: endpoint.loop)
        logger.debug("session closed", metadata: ["session": "\(id)"])
    }

    // MARK: sending

    private func sendOutput(_ message: String) {
        guard transport.isOnOwnerThread else {
            transport.executeOnOwnerThread { [self] in sendOutput(message) }
            return
        }
        guard case .open = state else { return }
        send(message)
    }

    private func outputFailed(_ error: Error) {
        guard transport.isOnOwnerThread else {
            let description = "\(error)"
            transport.executeOnOwnerThread { [self] in outputFailed(description) }
            return
        }
        outputFailed("\(error)")
    }

    private func outputFailed(_ description: String) {
        guard case .open = state else { return }
        logger.error("an output of the session failed; closing it", metadata: ["session": "\(id)", "error": "\(description)"])
        transport.close(code: 1011, reason: "internal error")
    }

    private func refuse(_ error: ProtocolError) {
        send(ServerMessageWriter.error(error))
        metrics.errorSent(loop: endpoint.loop)
    }

    private func send(_ message: String) {
        transport.send(text: message)
        metrics.messageSent(loop: endpoint.loop)
    }
}
