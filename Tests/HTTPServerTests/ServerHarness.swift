import EventLoop
import Foundation
@testable import HTTPServer
import NetworkTestSupport
import Synchronization
import XCTest

/// A parsed response read from a raw socket.
struct RawResponse {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A blocking test client, plain or TLS: what the response and frame readers need.
protocol TestByteStream: AnyObject {
    /// Bytes read but not consumed yet.
    var pending: [UInt8] { get set }
    /// One read: the bytes, [] on EOF, nil on timeout or error.
    func receiveSome(max: Int) -> [UInt8]?
    func send(_ bytes: [UInt8])
}

extension BlockingClient: TestByteStream {}

extension TestByteStream {
    func send(_ string: String) { send(Array(string.utf8)) }

    /// Reads until EOF; returns the bytes and whether EOF was seen.
    func receiveAll() -> (bytes: [UInt8], eof: Bool) {
        var out: [UInt8] = []
        while true {
            guard let some = receiveSome(max: 65536) else { return (out, false) }
            if some.isEmpty { return (out, true) }
            out += some
        }
    }

    /// Reads one response head and, unless `headOnly`, its Content-Length body; nil on EOF/timeout.
    func readResponse(headOnly: Bool = false) -> RawResponse? {
        var buffer = pending
        while true {
            if let end = buffer.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                var rest = Array(buffer[end.upperBound...])
                let lines = head.components(separatedBy: "\r\n")
                let parts = lines[0].split(separator: " ", maxSplits: 2)
                guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
                var headers: [String: String] = [:]
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                let length = headOnly || status == 304 || status == 101 ? 0 : Int(headers["content-length"] ?? "0") ?? 0
                while rest.count < length {
                    guard let more = receiveSome(max: 65536), !more.isEmpty else { return nil }
                    rest += more
                }
                pending = Array(rest[length...])
                return RawResponse(status: status, headers: headers, body: Array(rest[..<length]))
            }
            guard let more = receiveSome(max: 65536), !more.isEmpty else { return nil }
            buffer += more
        }
    }

    /// One GET exchange.
    func request(_ target: String, headers: [String] = []) -> RawResponse? {
        request("GET", target, headers: headers)
    }

    /// One exchange with `method` and the usual headers.
    func request(_ method: String, _ target: String, headers: [String] = []) -> RawResponse? {
        send("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n")
        return readResponse(headOnly: method == "HEAD")
    }
}

/// Records what a WebSocket handler saw, and echoes text (or closes on "close me").
final class RecordingHandler: WebSocketHandler {
    let events: Locked<[String]>
    init(events: Locked<[String]>) { self.events = events }
    func webSocketDidOpen(_ connection: WebSocketConnection, request: HTTPRequestHead) { events.withLock { $0.append("open") } }
    func webSocket(_ connection: WebSocketConnection, didReceiveText text: String) {
        events.withLock { $0.append("text:\(text)") }
        if text == "close me" { connection.close(code: 1000, reason: "bye") } else { connection.send(text: "echo:" + text) }
    }
    func webSocketDidClose(_ connection: WebSocketConnection) { events.withLock { $0.append("closed") } }
}

/// A server on a loop thread serving a temporary public directory.
final class ServerHarness {
    let runner: LoopThread
    let server: LoopConfined<HTTPServer?>
    let port: Int
    let root: URL
    let outside: URL
    let events = Locked<[String]>([])

    init(configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("rxlive-http-\(UUID().uuidString)")
        root = base.appendingPathComponent("public")
        outside = base.appendingPathComponent("secret.txt")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try "<h1>home</h1>\n".write(to: root.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        try "body { color: red }\n".write(to: root.appendingPathComponent("style.css"), atomically: true, encoding: .utf8)
        try "sub index\n".write(to: root.appendingPathComponent("sub/index.html"), atomically: true, encoding: .utf8)
        try "top secret\n".write(to: outside, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("link-out"), withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("link-in.css"),
                                                   withDestinationURL: root.appendingPathComponent("style.css"))

        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, publicDirectory: root.path)
        configure(&configuration)
        runner = try LoopThread()
        let server = LoopConfined<HTTPServer?>(nil)
        self.server = server
        let loop = runner.loop
        let events = self.events
        let finalConfiguration = configuration
        port = try runner.sync {
            let instance = HTTPServer(configuration: finalConfiguration, loop: loop)
            instance.addWebSocketRoute("/ws/echo") { RecordingHandler(events: events) }
            instance.addRoute("/metrics") { _ in HTTPResponse(status: 200, contentType: "text/plain", body: "up 1\n") }
            try instance.start()
            server.value = instance
            return instance.localPort
        }
    }

    func client() throws -> BlockingClient { try BlockingClient(port: port) }

    /// Graceful shutdown, then the loop stops; true when everything finished in time.
    func shutdown() -> Bool {
        let done = Locked(false)
        let server = self.server
        let loop = runner.loop
        _ = try? runner.sync {
            server.value?.shutdown {
                done.withLock { $0 = true }
                loop.stop()
            }
        }
        let finished = eventually(timeout: 10) { done.withLock { $0 } }
        _ = runner.stop()
        try? FileManager.default.removeItem(at: root.deletingLastPathComponent())
        return finished
    }
}

/// Client-side WebSocket framing for tests (masked frames, simple reads).
enum WSTestFrames {
    static func frame(opcode: UInt8, payload: [UInt8], fin: Bool = true) -> [UInt8] {
        var out: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            out.append(0x80 | UInt8(payload.count))
        } else if payload.count < 65536 {
            out += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            out.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        out += key
        out += payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
        return out
    }

    static func text(_ string: String) -> [UInt8] { frame(opcode: 1, payload: Array(string.utf8)) }

    static func close(_ code: UInt16, _ reason: String = "") -> [UInt8] {
        frame(opcode: 8, payload: [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8))
    }

    static func upgradeRequest(path: String = "/ws/echo", key: String = "dGhlIHNhbXBsZSBub25jZQ==", version: String = "13",
                               extra: [String] = []) -> String {
        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: \(version)\r\n"
            + extra.map { $0 + "\r\n" }.joined() + "\r\n"
    }
}

extension TestByteStream {
    /// Reads one unmasked server frame: (opcode, payload); nil on EOF/timeout.
    func readFrame() -> (opcode: UInt8, payload: [UInt8])? {
        func take(_ n: Int) -> [UInt8]? {
            while pending.count < n {
                guard let more = receiveSome(max: 65536), !more.isEmpty else { return nil }
                pending += more
            }
            defer { pending.removeFirst(n) }
            return Array(pending[0..<n])
        }
        guard let header = take(2) else { return nil }
        var length = Int(header[1] & 0x7F)
        if length == 126 {
            guard let ext = take(2) else { return nil }
            length = Int(ext[0]) << 8 | Int(ext[1])
        } else if length == 127 {
            guard let ext = take(8) else { return nil }
            length = ext.reduce(0) { $0 << 8 | Int($1) }
        }
        guard let payload = take(length) else { return nil }
        return (header[0] & 0x0F, payload)
    }
}
