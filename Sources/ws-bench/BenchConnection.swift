import CLibUV
import TLS
import WebSocket

/// What a mode hears from a connection; all calls on the loop thread.
protocol BenchConnectionDelegate: AnyObject {
    /// The 101 arrived and its Sec-WebSocket-Accept is right.
    func connectionDidOpen(_ connection: BenchConnection)
    /// A complete text message; the bytes are valid only during the call.
    func connection(_ connection: BenchConnection, didReceiveText text: UnsafeRawBufferPointer)
    /// The TCP handle is closed; `error` says why when it was not a clean close. Called once.
    func connectionDidClose(_ connection: BenchConnection, error: String?)
}

/// One client WebSocket over a libuv TCP handle: connect, upgrade, masked frames out,
/// frames in through the codec's state machine (configured to read unmasked server frames).
/// With a TLS session every byte goes through it: wss://.
final class BenchConnection {
    enum State { case connecting, handshaking, open, closing, closed }

    let id: Int
    private(set) var state: State = .connecting
    private let loop: BenchLoop
    private weak var delegate: BenchConnectionDelegate?
    private let tcp: UnsafeMutablePointer<uv_tcp_t>
    private let path: String
    private let port: Int32
    private let key: String
    private var handshakeBuffer: [UInt8] = []
    private var machine = WebSocketProtocolMachine(
        configuration: .init(maxMessageSize: 16 << 20, acceptsBinary: true, requiresMasking: false))
    private var frameBuffer: [UInt8] = []
    private var pendingWrites = 0
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
        tcp = .allocate(capacity: 1)
        uv_tcp_init(loop.loop, tcp)
        // The handle keeps the connection alive until its close callback.
        tcp.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    /// Starts the TCP connect to 127.0.0.1:port.
    func connect() {
        var address = sockaddr_in()
        uv_ip4_addr("127.0.0.1", port, &address)
        let request = UnsafeMutablePointer<uv_connect_t>.allocate(capacity: 1)
        let status = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { uv_tcp_connect(request, tcp, $0, benchConnected) }
        }
        if status != 0 {
            request.deallocate()
            abort(error: "connect: \(uvError(status))")
        }
    }

    fileprivate func didConnect(status: Int32) {
        guard status == 0 else { return abort(error: "connect: \(uvError(status))") }
        guard state == .connecting else { return }
        state = .handshaking
        uv_tcp_nodelay(tcp, 1)
        if let tls {
            do { try tls.startHandshake() } catch { return abort(error: "\(error)") }
            sendTLSOutput()
        }
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
            // The server resets its context per message then, so one shared inflater reads every connection.
            + (inflater == nil ? "" : "Sec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover\r\n")
            + "\r\n"
        var bytes = Array(request.utf8)
        bytes.withUnsafeMutableBytes { write(UnsafeRawBufferPointer($0)) }
        let status = tcp.withMemoryRebound(to: uv_stream_t.self, capacity: 1) {
            uv_read_start($0, benchAllocate, benchRead)
        }
        if status != 0 { abort(error: "read: \(uvError(status))") }
    }

    fileprivate func didRead(_ bytes: UnsafeRawBufferPointer) {
        guard let tls else { return didReadPlain(bytes) }
        do {
            // The loop's read buffer holds `bytes`; the session takes them all before reusing it.
            try tls.receive(bytes, scratch: loop.readBuffer) { plain in
                didReadPlain(plain)
                return state != .closed
            }
        } catch {
            return abort(error: "\(error)")
        }
        sendTLSOutput()
    }

    private func didReadPlain(_ bytes: UnsafeRawBufferPointer) {
        switch state {
        case .handshaking: readHandshake(bytes)
        case .open, .closing: readFrames(bytes)
        case .connecting, .closed: break
        }
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
        frameBuffer.withUnsafeBytes { write($0) }
    }

    /// Sends one masked text message from bytes.
    func sendText(bytes: UnsafeRawBufferPointer) {
        guard state == .open else { return }
        frameBuffer.removeAll(keepingCapacity: true)
        WebSocketFrameEncoder.appendFrame(opcode: .text, payload: bytes, maskingKey: random.maskingKey(), to: &frameBuffer)
        frameBuffer.withUnsafeBytes { write($0) }
    }

    private func sendControl(_ opcode: WebSocketOpcode, _ payload: [UInt8]) {
        guard state == .open || state == .closing else { return }
        frameBuffer.removeAll(keepingCapacity: true)
        payload.withUnsafeBytes {
            WebSocketFrameEncoder.appendFrame(opcode: opcode, payload: $0, maskingKey: random.maskingKey(), to: &frameBuffer)
        }
        frameBuffer.withUnsafeBytes { write($0) }
    }

    private func sendClose() {
        frameBuffer.removeAll(keepingCapacity: true)
        WebSocketFrameEncoder.appendClose(code: .normal, maskingKey: random.maskingKey(), to: &frameBuffer)
        frameBuffer.withUnsafeBytes { write($0) }
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

    fileprivate func readFailed(status: Int) {
        if state != .closing && closeError == nil {
            closeError = status == Int(UV_EOF.rawValue) ? "server closed the connection" : "read: \(uvError(Int32(status)))"
        }
        closeTransport()
    }

    private func closeTransport() {
        guard state != .closed else { return }
        state = .closed
        tcp.withMemoryRebound(to: uv_handle_t.self, capacity: 1) { handle in
            if uv_is_closing(handle) == 0 { uv_close(handle, benchClosed) }
        }
    }

    fileprivate func didClose() {
        tcp.deallocate()
        delegate?.connectionDidClose(self, error: closeError)
    }

    /// Writes `bytes`, through TLS when the connection has it.
    private func write(_ bytes: UnsafeRawBufferPointer) {
        guard let tls else { return writeSocket(bytes) }
        do { try tls.send(bytes) } catch { return abort(error: "\(error)") }
        sendTLSOutput()
    }

    /// Writes what the TLS session produced (records, handshake messages).
    private func sendTLSOutput() {
        guard let tls else { return }
        withUnsafeTemporaryAllocation(byteCount: 32 * 1024, alignment: 16) { buffer in
            while state != .closed {
                let count = tls.readOutput(into: buffer)
                if count == 0 { break }
                writeSocket(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            }
        }
    }

    /// Writes now when nothing is queued (uv_try_write), else queues a copy.
    private func writeSocket(_ bytes: UnsafeRawBufferPointer) {
        guard state != .closed, let base = bytes.baseAddress, bytes.count > 0 else { return }
        var offset = 0
        if pendingWrites == 0 {
            var buffer = uv_buf_init(UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: CChar.self)),
                                     UInt32(bytes.count))
            let written = tcp.withMemoryRebound(to: uv_stream_t.self, capacity: 1) { uv_try_write($0, &buffer, 1) }
            if written == Int32(bytes.count) { return }
            if written >= 0 {
                offset = Int(written)
            } else if written != UV_EAGAIN.rawValue {
                return abort(error: "write: \(uvError(written))")
            }
        }
        let remaining = bytes.count - offset
        let copy = UnsafeMutableRawPointer.allocate(byteCount: remaining, alignment: 1)
        copy.copyMemory(from: base + offset, byteCount: remaining)
        let request = UnsafeMutablePointer<uv_write_t>.allocate(capacity: 1)
        request.pointee.data = copy
        var buffer = uv_buf_init(copy.assumingMemoryBound(to: CChar.self), UInt32(remaining))
        let status = tcp.withMemoryRebound(to: uv_stream_t.self, capacity: 1) {
            uv_write(request, $0, &buffer, 1, benchWritten)
        }
        if status != 0 {
            copy.deallocate()
            request.deallocate()
            return abort(error: "write: \(uvError(status))")
        }
        pendingWrites += 1
    }

    fileprivate func didWrite(status: Int32) {
        pendingWrites -= 1
        if status != 0 && status != UV_ECANCELED.rawValue { abort(error: "write: \(uvError(status))") }
    }
}

// MARK: libuv callbacks (plain functions: C function pointers cannot capture)

private func connection(of handle: UnsafeMutableRawPointer?) -> BenchConnection? {
    guard let handle else { return nil }
    let data = handle.assumingMemoryBound(to: uv_handle_t.self).pointee.data
    return data.map { Unmanaged<BenchConnection>.fromOpaque($0).takeUnretainedValue() }
}

private func benchConnected(_ request: UnsafeMutablePointer<uv_connect_t>?, _ status: Int32) {
    guard let request else { return }
    let handle = request.pointee.handle
    request.deallocate()
    connection(of: UnsafeMutableRawPointer(handle))?.didConnect(status: status)
}

private func benchAllocate(_ handle: UnsafeMutablePointer<uv_handle_t>?, _ suggested: Int,
                           _ buffer: UnsafeMutablePointer<uv_buf_t>?) {
    guard let handle, let buffer, let loopData = handle.pointee.loop.pointee.data else { return }
    let loop = Unmanaged<BenchLoop>.fromOpaque(loopData).takeUnretainedValue()
    buffer.pointee = uv_buf_init(loop.readBuffer.baseAddress!.assumingMemoryBound(to: CChar.self),
                                 UInt32(loop.readBuffer.count))
}

private func benchRead(_ stream: UnsafeMutablePointer<uv_stream_t>?, _ count: Int,
                       _ buffer: UnsafePointer<uv_buf_t>?) {
    guard let connection = connection(of: UnsafeMutableRawPointer(stream)) else { return }
    if count > 0, let base = buffer?.pointee.base {
        connection.didRead(UnsafeRawBufferPointer(start: base, count: count))
    } else if count < 0 {
        connection.readFailed(status: count)
    }
}

private func benchWritten(_ request: UnsafeMutablePointer<uv_write_t>?, _ status: Int32) {
    guard let request else { return }
    request.pointee.data?.deallocate()
    let handle = request.pointee.handle
    request.deallocate()
    connection(of: UnsafeMutableRawPointer(handle))?.didWrite(status: status)
}

private func benchClosed(_ handle: UnsafeMutablePointer<uv_handle_t>?) {
    guard let handle, let data = handle.pointee.data else { return }
    let connection = Unmanaged<BenchConnection>.fromOpaque(data)
    connection.takeUnretainedValue().didClose()
    connection.release()
}

// MARK: helpers

func uvError(_ status: Int32) -> String {
    String(cString: uv_strerror(status))
}

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
