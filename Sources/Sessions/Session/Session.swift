import Dispatch
import EventLoop
import Logging
import RxSwift

/// One session: one view model's graph bound to one connection.
///
/// Lifecycle: `open()` sends `ready`, builds the graph (a subject per input, `transform`
/// once, every output subscribed); `receive(_:)` feeds a decoded message to its subject
/// or answers an error, leaving the session as it was; `close()` disposes the output
/// subscriptions (cancelling a pending login and its timer) and from then on nothing is
/// sent or fed.
///
/// Memory: a server holds thousands of idle sessions, so an open session's state lives in
/// this one object (no separate bag or state box), 101 bytes in a 112-byte malloc block
/// (`SessionsLayoutTests`); a limited tap's bucket lives in its feed (`LimitedTapFeed`), and a
/// signed-in user in the subclass `SignedInSession`.
///
/// Every method runs on the connection's owner thread (its event loop). Output
/// elements that arrive on another thread (a scheduler that is not the loop's) hop
/// to the owner thread before they touch the session.
// Not final only for `SignedInSession`, which overrides nothing: its members are final, so calls stay direct.
class Session: SessionOutputSink, @unchecked Sendable {  // mutable state is touched only on the owner thread; `transport` is set once, before the graph exists
    let endpoint: SessionEndpoint
    /// The connection as one word (`transport`, in `Session+WebSocket.swift`): set when it
    /// opens, and kept after the close, since outputs on other threads read it to hop to the
    /// owner thread. Unchecked for exclusivity: written once before any other thread can see
    /// the session.
    @exclusivity(unchecked) final var transportObject: AnyObject?
    let idBits: UInt64
    /// When the session was made (the endpoint's clock), for its age on the dashboard.
    let openedAt: UInt64
    /// The tap of `trace` once made, sealed empty when the session closed before anyone asked
    /// for it. Made by the first viewer, so an unwatched session holds no tap; while nobody
    /// watches, recording costs one atomic load.
    private let traceTap = AtomicRetainedReference<Tap<Marble>>()

    /// The session's opaque id, sent in `ready`: 64 random bits in hex.
    final var id: String { String(idBits, radix: 16) }

    /// The session's explicit lifecycle; the graph exists while `open`, whose payload is the
    /// output subscriptions (`SessionGraph.disposal`, nil until the graph is built or when no
    /// output has anything to dispose), disposed by `close()`. One word in all
    /// (`SessionsLayoutTests`).
    enum State {
        case idle
        case open(OutputDisposal?)
        case closed
    }

    // The three below are touched on the owner thread only and never borrowed across a call
    // that could reach them again, so their accesses go unchecked (two dynamic checks per
    // message less).
    @exclusivity(unchecked) private var state: State = .idle
    /// The input subjects, by input index (while open).
    @exclusivity(unchecked) private var feeds = SessionFeeds.none
    /// Used only when the endpoint has a message limit.
    @exclusivity(unchecked) private var messageBucket = TokenBucket(RateLimit(perSecond: 1, burst: 1), now: 0)
    /// Its index in the registry's list while open (`SessionRegistry`). Guarded by the
    /// registry's lock: another loop's session closing may move this one.
    @exclusivity(unchecked) final var registrySlot: UInt32 = 0
    /// Whether `transportObject` is a `WebSocketConnection` (set with it; a byte of padding).
    @exclusivity(unchecked) final var transportIsWebSocket = false

    /// A session of `endpoint` on `transport`, or on the WebSocket connection that opens it.
    init(endpoint: SessionEndpoint, transport: (any SessionTransport)? = nil) {
        self.endpoint = endpoint
        idBits = endpoint.sessionIDs.next()
        openedAt = endpoint.clock()
        transportObject = transport.map { $0 as AnyObject }
        transportIsWebSocket = Self.isWebSocket(transportObject)
    }

    /// A copy of the whole view model's description at each use: the message path reads
    /// `endpoint.wire` members in place instead.
    private var wire: WireViewModel { endpoint.wire }
    /// The view model's name, for a viewer.
    final var viewModelName: String { endpoint.wire.name }
    /// The lanes a viewer sees.
    final var lanes: [MarbleLane] { endpoint.wire.lanes }
    private var metrics: SessionMetrics { endpoint.metrics }
    private var logger: Logger { endpoint.logger }

    /// Sends `ready`, then builds and subscribes the graph. Only the first call counts.
    /// - Parameter clientAddress: the client's IP address, for services that count by it
    ///   (login throttling).
    /// - Parameter answers: where the services' answers come from in a replay
    ///   (`OfflineSession`); nil live, where `--record` (`SessionConfiguration.recorder`)
    ///   records them instead.
    final func open(clientAddress: String = "", answers: (any ServiceAnswering)? = nil) {
        open(client: PeerAddress(clientAddress), answers: answers)
    }

    /// `open(clientAddress:answers:)` with the address as the connection gave it.
    final func open(client clientAddress: PeerAddress, answers: (any ServiceAnswering)? = nil) {
        guard case .idle = state else { return }
        metrics.sessionOpened(endpoint.sessionCounters, loop: endpoint.loop)
        endpoint.ready.withMessage(sessionBits: idBits, user: identity) { ready in
            transport?.send(textBytes: ready)
            endpoint.loopMetrics.messageSent()
        }
        let now = openedAt
        endpoint.registry.add(self)
        if let limit = endpoint.configuration.messageLimit {
            messageBucket = TokenBucket(limit, now: now)
        }
        // Open before subscribing, so elements emitted on subscription are sent.
        state = .open(nil)
        // The client holds the session strongly (no side table): `close()` lets the graph and so it go.
        // Recording starts before the graph exists, so what the outputs emit on subscription is in it.
        var answers = answers
        // `--record`'s recorder, or a dashboard's that asked for this view model's new sessions.
        if wire.isRecorded, let recorder = endpoint.configuration.recorder ?? endpoint.registry.recordings.recorder(for: wire.name) {
            answers = endpoint.registry.recordings.begin(self, with: recorder) ?? answers
        }
        let client = WireClient(address: clientAddress, user: identity, session: self, answers: answers)
        let (graphFeeds, disposal) = wire.build(client, self).parts()
        guard case .open = state else {
            // Closed while its outputs were subscribed (one failed at once): the graph goes now.
            disposal?.dispose()
            return
        }
        feeds = consume graphFeeds
        state = .open(consume disposal)
        if endpoint.logsDebug { logger.debug("session opened", metadata: ["session": "\(id)", "viewModel": "\(wire.name)"]) }
    }

    /// Handles one client text message.
    final func receive(_ text: String) {
        var text = text
        text.withUTF8 { receive(utf8: $0) }
    }

    /// Handles one client text message given as UTF-8 bytes (valid during the call).
    final func receive(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard case .open = state else { return }
        endpoint.loopMetrics.messageReceived()
        // The clock is read only when a limit applies or a dashboard times messages, at most
        // once for both (and once more at the end for the latency).
        var reading: UInt64?
        func now() -> UInt64 {
            if let reading { return reading }
            let time = endpoint.clock()
            reading = time
            return time
        }
        let arrival: UInt64? = metrics.isTimingLatency ? now() : nil
        if let limit = endpoint.configuration.messageLimit, !messageBucket.take(now: now(), limit: limit) {
            refuse(ProtocolError(.rateLimited, "too many messages; slow down"))
            return
        }
        let event: InputTable.Event
        var isPlain = false
        // A plain message is matched through the table unretained (the endpoint holds it as
        // long as the session holds the endpoint): read as usual, it was retained around the match.
        if let plain = Unmanaged.passUnretained(endpoint.wire.inputs)._withUnsafeGuaranteedRef({ $0.plainEvent(bytes) }) {
            event = plain
            isPlain = true
        } else {
            do {
                event = try endpoint.wire.inputs.nonPlainEvent(utf8: bytes)
            } catch {
                refuse(error)
                return
            }
        }
        // A limited tap's bucket is in its feed (`LimitedTapFeed`).
        if endpoint.wire.hasTapLimits, let limit = endpoint.wire.tapLimits[event.index],
           let tap = feed(at: event.index), type(of: tap) == LimitedTapFeed.self,
           !unsafeDowncast(tap, to: LimitedTapFeed.self).take(now: now(), limit: limit) {
            refuse(ProtocolError(.rateLimited, "too many \"\(endpoint.wire.inputs.inputs[event.index].name)\" taps; wait a moment"))
            return
        }
        // While the session is watched or recorded, an accepted input is recorded before it is
        // fed. A text or a tap is accepted as it is: it is recorded before its feed is read, so
        // no call comes between reading the feed and using it (which would cost a retain of it).
        let refusal: ProtocolError?
        let isTraced = traceTap.isSet
        if isTraced, case .value = event.payload {
            refusal = sendTracedValue(event, message: UnsafeRawBufferPointer(bytes), isPlain: isPlain)
        } else {
            if isTraced {
                recordInput(event, message: UnsafeRawBufferPointer(bytes), isPlain: isPlain)
            }
            let index = event.index
            // The payload moved out of the event, not copied (a text's retain and release).
            refusal = SessionFeeds.send((consume event).payload, to: feed(at: index), index: index,
                                        input: endpoint.wire.inputs.inputs[index].name) {}
            if isTraced {
                traceTap.withObject { $0.recording.withObject { $0.inputHandled() } }
            }
        }
        if let refusal {
            refuse(refusal)
            return
        }
        if let arrival {
            endpoint.loopMetrics.recordLatency(nanoseconds: endpoint.clock() &- arrival)
        }
    }

    /// Input `index`'s feed, read out of `feeds` alone: one retain, where calling a method
    /// of `feeds` copied all three slots.
    @inline(__always)
    private func feed(at index: Int) -> AnyObject? {
        switch index {
        case 0: return feeds.first
        case 1: return feeds.second
        default: return feeds.later(index)
        }
    }

    /// A value input of a watched or recorded session: recorded once its feed accepts it
    /// (decodes it), before the view model gets it.
    @inline(never)
    private func sendTracedValue(_ event: InputTable.Event, message: UnsafeRawBufferPointer, isPlain: Bool) -> ProtocolError? {
        let refusal = SessionFeeds.send(event.payload, to: feed(at: event.index), index: event.index,
                                        input: endpoint.wire.inputs.inputs[event.index].name) {
            recordInput(event, message: message, isPlain: isPlain)
        }
        traceTap.withObject { $0.recording.withObject { $0.inputHandled() } }
        return refusal
    }

    /// An accepted input event, for a viewer and a recording: its line written here, its
    /// marble made only while someone watches.
    @inline(__always)
    private func recordInput(_ event: InputTable.Event, message: UnsafeRawBufferPointer, isPlain: Bool) {
        traceTap.withObject { trace in
            if trace.isObserved { recordInputMarble(event, in: trace) }
            trace.recording.withObject { $0.input(event, message: message, isPlain: isPlain) }
        }
    }

    /// Disposes the graph; nothing is sent afterwards. Safe to call more than once.
    final func close() {
        guard case .open(let disposal) = state else {
            state = .closed
            return
        }
        state = .closed
        // Disposes every subscription now, cancelling pending timers, and lets the graph go.
        feeds = .none
        disposal?.dispose()
        endpoint.registry.remove(self)
        // A viewer sees every lane complete, as the session's streams end here; a tap made
        // after this point is made finished.
        if let trace = traceTap.sealIfEmpty() {
            if trace.isObserved {
                let time = marbleClock()
                for lane in lanes { trace.record(Marble(lane: lane.name, kind: .completed, timeMicroseconds: time)) }
            }
            trace.finish()
        }
        metrics.sessionClosed(endpoint.sessionCounters, loop: endpoint.loop)
        if endpoint.logsDebug { logger.debug("session closed", metadata: ["session": "\(id)"]) }
    }

    /// The sign-in ended (a log out, here or on another instance): the client is told, the
    /// graph disposed now, and the connection closed with 4001.
    final func signOut(reason: String) {
        guard case .open = state else { return }
        send(ServerMessageWriter.signedOut(reason: reason))
        transport?.close(code: 4001, reason: "signed out")
        close()
    }

    // MARK: trace

    /// The session's inputs and outputs as marbles, for a viewer on the dashboard; made by
    /// the first call, from any thread. After the close it is a finished tap.
    final var trace: Tap<Marble> {
        if let existing = traceTap.object { return existing }
        let made = Tap<Marble>()
        switch traceTap.setIfEmpty(made) {
        case .set:
            return made
        case .alreadySet(let other):
            return other
        case .sealed:
            made.finish()
            return made
        }
    }

    /// Has `recording` written from now on with every accepted input, output element and
    /// failure (`SessionRecorder.begin`); false when the session is closed or already recorded.
    final func startRecording(_ recording: SessionRecording) -> Bool {
        guard case .open = state else { return false }
        if case .set = trace.recording.setIfEmpty(recording) { return true }
        return false
    }

    /// Whether the session has a trace: someone watched it or it is recorded.
    final var isTraced: Bool { traceTap.object != nil }

    /// An output element, `message` as the client gets it: a marble while someone watches,
    /// a line while recorded.
    @inline(__always)  // into `sendTracedOutput`: the recorded line's path with no call of its own
    private func recordOutput(message: UnsafeRawBufferPointer, of description: WireOutputDescription, onOwnerThread: Bool) {
        traceTap.withObject { trace in
            if trace.isObserved { recordOutputMarble(message: message, of: description, in: trace) }
            trace.recording.withObject { $0.output(message: message, onSessionThread: onOwnerThread) }
        }
    }

    /// An output failed.
    final func recordOutput(_ description: WireOutputDescription, failed error: any Error) {
        guard let trace = traceTap.object else { return }
        trace.record(Marble(lane: description.name, kind: .error, label: "\(error)", timeMicroseconds: marbleClock()))
        trace.recording.object?.output(description.name, failed: error)
    }

    /// An output completed: a marble while someone watches (a replay needs no line for it).
    final func recordOutputCompleted(_ description: WireOutputDescription) {
        traceTap.object?.record(Marble(lane: description.name, kind: .completed, timeMicroseconds: marbleClock()))
    }

    // MARK: sending

    final func sendOutput(_ message: String) {
        guard transport?.isOnOwnerThread ?? true else {
            transport?.executeOnOwnerThread { [self] in sendOutput(message) }
            return
        }
        guard case .open = state else { return }
        send(message)
    }

    final func sendOutput(utf8 message: UnsafeRawBufferPointer) {
        if let connection = webSocketTransport {
            send(utf8: message, through: connection, onOwnerThread: connection.isOnOwnerThread)
        } else if let transport {
            send(utf8: message, through: transport, onOwnerThread: transport.isOnOwnerThread)
        } else if case .open = state {
            endpoint.loopMetrics.messageSent()
        }
    }

    /// An output element, `message` as the client gets it, recorded first for a viewer and a
    /// recording (`recordOutput`).
    final func sendTracedOutput(utf8 message: UnsafeRawBufferPointer, of description: WireOutputDescription) {
        guard let transport else {
            recordOutput(message: message, of: description, onOwnerThread: true)
            guard case .open = state else { return }
            endpoint.loopMetrics.messageSent()
            return
        }
        let onOwnerThread = transport.isOnOwnerThread
        recordOutput(message: message, of: description, onOwnerThread: onOwnerThread)
        send(utf8: message, through: transport, onOwnerThread: onOwnerThread)
    }

    @inline(__always)
    private func send(utf8 message: UnsafeRawBufferPointer, through transport: some SessionTransport, onOwnerThread: Bool) {
        guard onOwnerThread else {
            sendOutput(String(decoding: message, as: UTF8.self))
            return
        }
        guard case .open = state else { return }
        endpoint.loopMetrics.messageSent()  // before the send, which the compiler cannot see into: no retain of the metrics
        transport.send(textBytes: message)
    }

    final func outputFailed(_ error: Error) {
        guard transport?.isOnOwnerThread ?? true else {
            let description = "\(error)"
            transport?.executeOnOwnerThread { [self] in outputFailed(description) }
            return
        }
        outputFailed("\(error)")
    }

    private func outputFailed(_ description: String) {
        guard case .open = state else { return }
        logger.error("an output of the session failed; closing it", metadata: ["session": "\(id)", "error": "\(description)"])
        transport?.close(code: 1011, reason: "internal error")
    }

    /// An error a view model's service reports (the login database is down, say): sent
    /// like a refused message while the session is open, dropped after it closed.
    final func refuseFromService(_ error: ProtocolError) {
        guard transport?.isOnOwnerThread ?? true else {
            transport?.executeOnOwnerThread { [self] in refuseFromService(error) }
            return
        }
        guard case .open = state else { return }
        refuse(error)
    }

    private func refuse(_ error: ProtocolError) {
        send(ServerMessageWriter.error(error))
        metrics.errorSent(loop: endpoint.loop)
    }

    private func send(_ message: String) {
        transport?.send(text: message)
        endpoint.loopMetrics.messageSent()
    }
}
