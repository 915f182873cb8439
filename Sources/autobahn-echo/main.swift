// autobahn-echo: a test-only WebSocket echo server for the Autobahn TestSuite.
// Upgrades a request on any path and sends every message back unchanged.
//
//   autobahn-echo --port <n> [--host 127.0.0.1] [--tls-cert <pem> --tls-key <pem>]
import EventLoop
import HTTPServer
import TLS
#if canImport(Glibc)
import Glibc
#endif

/// Echoes text as text and binary as binary, without copying through a String.
final class EchoHandler: WebSocketHandler {
    func webSocketDidOpen(_ connection: WebSocketConnection, request: HTTPRequestHead) {}
    func webSocket(_ connection: WebSocketConnection, didReceiveText text: String) { connection.send(text: text) }
    func webSocket(_ connection: WebSocketConnection, didReceiveTextBytes bytes: UnsafeRawBufferPointer) {
        connection.send(textBytes: bytes)
    }
    func webSocket(_ connection: WebSocketConnection, didReceiveBinary bytes: UnsafeRawBufferPointer) {
        connection.send(binary: bytes)
    }
    func webSocketDidClose(_ connection: WebSocketConnection) {}
}

/// Writes a line straight to a file descriptor (unbuffered, so logs show up when piped).
func writeLine(_ text: String, to fd: Int32 = 1) {
    let line = text + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
}

func usage() -> Never {
    writeLine("usage: autobahn-echo --port <n> [--host <address>] [--tls-cert <pem> --tls-key <pem>]", to: 2)
    exit(2)
}

var host = "127.0.0.1"
var port: Int?
var certificate: String?
var key: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--port": port = arguments.popFirst().flatMap { Int($0) }
    case "--host":
        guard let value = arguments.popFirst() else { usage() }
        host = value
    case "--tls-cert": certificate = arguments.popFirst()
    case "--tls-key": key = arguments.popFirst()
    case "-h", "--help": usage()
    default: usage()
    }
}
guard let port, (0...65535).contains(port), (certificate == nil) == (key == nil) else { usage() }

// A peer that reset its connection costs an EPIPE on that connection, not the process.
signal(SIGPIPE, SIG_IGN)

do {
    let loop = try EventLoop()
    // Autobahn's 9.x cases send messages of up to 16 MiB; no heartbeat so no stray pings.
    var configuration = HTTPServerConfiguration(
        host: host, port: port, publicDirectory: nil, maxMessageSize: 32 << 20, pingInterval: nil,
        allowedOrigins: ["*"], acceptsBinaryMessages: true, maxUnsentBytes: 128 << 20)
    if let certificate, let key {
        configuration.tls = try ReloadableTLSContext(certificatePath: certificate, keyPath: key)
    }
    // Every echo compressed when permessage-deflate is on: the 12.x and 13.x cases are about
    // compressed messages (and kosoku 0.1.0 fails a case whose short echo comes back uncompressed).
    configuration.minimumCompressedSize = 0
    let server = HTTPServer(configuration: configuration, loop: loop)
    server.setWebSocketFallback { EchoHandler() }
    try server.start()
    for signal in [SIGINT, SIGTERM] {
        try loop.onSignal(signal) {
            server.shutdown { loop.stop() }
        }
    }
    writeLine("autobahn-echo listening on \(configuration.tls == nil ? "ws" : "wss")://\(host):\(server.localPort)")
    loop.run()
    writeLine("autobahn-echo stopped")
} catch {
    writeLine("autobahn-echo: \(error)", to: 2)
    exit(1)
}
