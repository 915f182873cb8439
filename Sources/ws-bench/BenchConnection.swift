import EventLoop
import TLS
import WebSocket

/// What a mode hears from a connection; all calls on the loop thread.
protocol BenchConnectionDelegate: AnyObject {
    /// The 101 arrived and its Sec-WebSocket-Accept is right.
    func connectionDidOpen(_ connection: BenchConnection)
    /// A complete text message; the bytes are valid only during the call.
    func connection(_ connection: BenchConnection, didReceiveText text: UnsafeRawBufferPointer)
    /// The TCP connection is closed; `error` says why when it was not a clean close. Called once.
    func connectionDidClose(_ connection: BenchConnection, error: String?)
}

/// One client WebSocket over an `EventLoop` connection: connect, upgrade, masked frames out,
/// frames in through the codec's state machine (configured to read unmasked server frames).
/// With a TLS session the connection's filter carries every byte: wss://.
final class BenchConnection: TCPConnectionDelegate {
    enum State { case connecting, handshaking, open, closing, closed }

    let id: Int
    private(set) var state: State = .connecting
    private let loop: BenchLoop
    private weak var delegate: BenchConnectionDelegate?
    /// Set by `connect()`; nil until then, or when the connect could not start.
    private var tcp: TCPConnection?
    private let path: String
    private let port: Int32
    private let key: String
    private var handshakeBuffer: [UInt8] = []
    private var machine = WebSocketProtocolMachine(
        configuration: .init(maxMessageSize: 16 << 20, acceptsBinary: true, requiresMasking: false))
    private var frameBuffer: [UInt8] = []
    private var closeError: String?
    private var random: FastRandom
    private let tls: TLSSession?
    /// Set with --deflate: offered in the handshake, used when the server accepts.
    private let inflater: PerMessageInflater?

    /// Free for the mode: a send timestamp, a counter, a phase.
    var sentAt: UInt64 = 0
    var counter = 0
    var phase = 0

    init(id: Int, loop: BenchLoop, port: Int32, path: String, tls: TLSSession?, delegate: BenchConnectionDelegate,
         inflater: PerMessageInflater? = nil) {
        self.id = id
        self.tls = tls
        self.inflater = inflater
        self.loop = loop
        self.port = port
        self.path = path
        self.delegate = delegate
        random = FastRandom(seed: UInt64(id) &* 0x9E37_79B9_7F4A_7C15 ^ loop.now)
        key = base64(random.bytes(16))
    }

    /// Starts the TCP connect to 127.0.0.1:port.
    func connect() {
        do {
            let tcp = try loop.eventLoop.connect(to: "127.0.0.1", port: Int(port)) { [unowned self] error in
                if let error { return abort(error: "connect: \(error.reason)") }
                didConnect()
            }
            tcp.delegate = self
            if let tls {
                tls.onFailure = { [unowned self] error in abort(error: "\(error)") }
                tcp.filter = tls
            }
            self.tcp = tcp
        } catch {
            // No connection was opened: report the close from the loop, as one that failed later.
            closeError = "connect: \((error as? EventLoopError)?.reason ?? "\(error)")"
            state = .closed
            loop.schedule(after: 0) { [unowned self] in delegate?.connectionDidClose(self, error: closeError) }
        }
    }

    private func didConnect() {
        guard state == .connecting, let tcp else { return }
        state = .handshaking
        // The ClientHello leaves with the request's first flush; the request waits in the
        // session until the handshake is done.
        if let tls {
            do { try tls.startHandshake() } catch { return abort(error: "\(error)") }
        }
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
            // The server resets its context per message then, so one shared inflater reads every connection.
            + (inflater == nil ? "" : "Sec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover\r\n")
            + "\r\n"
        write(Array(request.utf8))
        tcp.startReading()
    }

    // MARK: TCPConnectionDelegate

    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {
        switch state {
        case .handshaking: readHandshake(bytes)
        case .open, .closing: readFrames(bytes)
        case .connecting, .closed: break
        }
    }

    func connectionDidReachEOF(_ connection: TCPConnection) {
        if state != .closing && closeError == nil { closeError = "server closed the connection" }
        closeTransport()
    }

    func connection(_ connection: TCPConnection, didFail error: EventLoopError) {
        if state != .closing && closeError == nil { closeError = "\(error.operation): \(error.reason)" }
    }

    func connectionDidClose(_ connection: TCPConnection) {
        state = .closed
        delegate?.connectionDidClose(self, error: closeError)
    }

    private func readHandshake(_ bytes: UnsafeRawBufferPointer) {
        handshakeBuffer.append(contentsOf: bytes)
        guard let end = headEnd(handshakeBuffer) else {
            if handshakeBuffer.count > 16 * 1024 { abort(error: "handshake: response head too long") }
            return
        }
        let head = String(decoding: handshakeBuffer[..<end], as: UTF8.self)
        let rest = Array(handshakeBuffer[(end + 4)...])
        handshakeBuffer = []
        guard head.hasPrefix("HTTP/1.1 101") else {
            return abort(error: "handshake: \(head.split(separator: "\r\n").first ?? "empty response")")
        }
        let expected = "sec-websocket-accept: " + WebSocketHandshake.acceptValue(forKey: key).lowercased()
        guard head.lowercased().split(separator: "\r\n").contains(where: { $0.trimmingSuffixSpaces == expected }) else {
            return abort(error: "handshake: wrong or missing Sec-WebSocket-Accept")
        }
        if let inflater, head.lowercased().contains("sec-websocket-extensions: permessage-deflate") {
            machine.inflater = inflater
        }
        state = .open
        delegate?.connectionDidOpen(self)
        if !rest.isEmpty, state == .open { rest.withUnsafeBytes { readFrames($0) } }
    }

    private func readFrames(_ bytes: UnsafeRawBufferPointer) {
        var failure: WebSocketCloseCode?
        var peerClosed = false
        var pong: [UInt8]?
        machine.receive(bytes) { event in
            switch event {
            case .text(let text):
                if state == .open { delegate?.connection(self, didReceiveText: text) }
            case .binary: break
            case .sendPong(let payload): pong = Array(payload)
            case .pongReceived: break
            case .peerClosed: peerClosed = true
            case .fail(let code): failure = code
            }
        }
        if let pong { sendControl(.pong, pong) }
        if let failure {
            closeError = "server broke the protocol (\(failure.rawValue))"
            closeTransport()
        } else if peerClosed {
            if state == .open { sendClose() }   // answer the server's close, then hang up
            closeTransport()
        }
    }

    /// Sends one masked text message.
    func sendText(_ text: String) {
        guard state == .open else { return }
        frameBuffer.removeAll(keepingCapacity: true)
        WebSocketFrameEncoder.appendText(text, maskingKey: random.maskingKey(), to: &frameBuffer)
        write(frameBuffer)
    }

    /// Sends one masked text message from bytes.
    func sendText(bytes: UnsafeRawBufferPointer) {
        guard state == .open else { return }
        frameBuffer.removeAll(keepingCapacity: true)
        WebSocketFrameEncoder.appendFrame(opcode: .text, payload: bytes, maskingKey: random.maskingKey(), to: &frameBuffer)
        write(frameBuffer)
    }

    private func sendControl(_ opcode: WebSocketOpcode, _ payload: [UInt8]) {
        guard state == .open || state == .closing else { return }
        frameBuffer.removeAll(keepingCapacity: true)
        payload.withUnsafeBytes {
            WebSocketFrameEncoder.appendFrame(opcode: opcode, payload: $0, maskingKey: random.maskingKey(), to: &frameBuffer)
        }
        write(frameBuffer)
    }

    private func sendClose() {
        frameBuffer.removeAll(keepingCapacity: true)
        WebSocketFrameEncoder.appendClose(code: .normal, maskingKey: random.maskingKey(), to: &frameBuffer)
        write(frameBuffer)
    }

    /// The clean close: a close frame, then TCP closes when the server answers
    /// (or on its EOF). A connection still handshaking is simply dropped.
    func close() {
        switch state {
        case .open:
            sendClose()
            state = .closing
        case .connecting, .handshaking:
            closeTransport()
        case .closing, .closed:
            break
        }
    }

    /// Drops the connection at once, reporting `error`.
    func abort(error: String) {
        if closeError == nil { closeError = error }
        closeTransport()
    }

    private func closeTransport() {
        guard state != .closed else { return }
        state = .closed
        tcp?.close()
    }

    /// Queues `bytes` (through TLS when the connection has it) and writes them now, or at the
    /// end of the read being handled.
    private func write(_ bytes: [UInt8]) {
        guard state != .closed, let tcp else { return }
        tcp.write(bytes)
        tcp.flush()
    }
}

// MARK: helpers

/// The index of "\r\n\r\n" in `bytes`, if any.
private func headEnd(_ bytes: [UInt8]) -> Int? {
    guard bytes.count >= 4 else { return nil }
    for index in 0 ... bytes.count - 4
    where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
        return index
    }
    return nil
}

extension Substring {
    fileprivate var trimmingSuffixSpaces: Substring {
        var text = self
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}

/// Standard base64 with padding (for the client's Sec-WebSocket-Key).
func base64(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var out: [UInt8] = []
    var index = 0
    while index < bytes.count {
        let chunk = bytes[index ..< min(index + 3, bytes.count)]
        var value = 0
        for (offset, byte) in chunk.enumerated() { value |= Int(byte) << (16 - 8 * offset) }
        for position in 0 ..< 4 {
            out.append(position <= chunk.count ? alphabet[(value >> (18 - 6 * position)) & 63] : UInt8(ascii: "="))
        }
        index += 3
    }
    return String(decoding: out, as: UTF8.self)
}

/// splitmix64: cheap per-frame masking keys (no syscall per frame; a benchmark needs no crypto).
struct FastRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func maskingKey() -> WebSocketMaskingKey {
        WebSocketMaskingKey(packed: UInt32(truncatingIfNeeded: next()))
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        (0 ..< count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }
}
