import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real HTTP/1.1 server on 127.0.0.1 (port chosen by the kernel) for the URLSession tests:
/// a thread answers each connection from `routes` by request path, then closes it. A path
/// with no route gets no answer: the server waits for the client to hang up and records it.
final class OneShotHTTPServer: @unchecked Sendable { // `lock` guards `hangUps` and `requests`; the rest is set in init
    struct Reply: Sendable {
        let status: Int
        let body: String
    }

    let port: Int
    private let listener: Int32
    private let routes: [String: Reply]
    private let lock = NSLock()
    private var hangUps: [String] = []
    private var requests: [String] = []

    init(routes: [String: Reply]) throws {
        self.routes = routes
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Stops accepting (the accept loop ends when the listener is shut down).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// Paths whose client hung up before getting an answer.
    var pathsHungUp: [String] {
        lock.lock()
        defer { lock.unlock() }
        return hangUps
    }

    /// Paths requested so far.
    var pathsRequested: [String] {
        lock.lock()
        defer { lock.unlock() }
        return requests
    }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: received, as: UTF8.self).contains("\r\n\r\n") {
            let count = recv(client, &buffer, buffer.count, 0)
            if count <= 0 { return }
            received += buffer[0 ..< count]
        }
        let requestLine = String(decoding: received, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let path = requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        lock.lock()
        requests.append(path)
        lock.unlock()
        guard let reply = routes[path] else {
            // No answer: wait (bounded) for the client to give up and close the connection.
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            if recv(client, &buffer, buffer.count, 0) == 0 {
                lock.lock()
                hangUps.append(path)
                lock.unlock()
            }
            return
        }
        let body = Array(reply.body.utf8)
        let head = "HTTP/1.1 \(reply.status) Status\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + body
        _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
