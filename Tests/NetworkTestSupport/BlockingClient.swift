import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain blocking TCP client socket on 127.0.0.1 for tests.
public final class BlockingClient {
    public let fd: Int32
    /// Bytes read but not consumed yet by the response/frame readers.
    public var pending: [UInt8] = []

    public init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if status != 0 {
            Glibc.close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        setTimeout(seconds: 5)
    }

    deinit { Glibc.close(fd) }

    public func setTimeout(seconds: Int) {
        var tv = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Shrinks the receive buffer so the peer's writes back up quickly.
    public func setReceiveBuffer(_ bytes: Int32) {
        var size = bytes
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    public func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    public func send(_ string: String) { send(Array(string.utf8)) }

    /// One recv: the bytes, or [] on EOF, or nil on timeout/error.
    public func receiveSome(max: Int = 65536) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: max)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, max, 0) }
        if n < 0 { return nil }
        return Array(buffer[0..<n])
    }

    /// Reads exactly `count` bytes (fewer on EOF/timeout).
    public func receive(count: Int) -> [UInt8] {
        var out: [UInt8] = []
        while out.count < count {
            guard let some = receiveSome(max: min(65536, count - out.count)), !some.isEmpty else { break }
            out += some
        }
        return out
    }

    /// Reads until EOF; returns the bytes and whether EOF was seen.
    public func receiveUntilEOF() -> (bytes: [UInt8], eof: Bool) {
        var out: [UInt8] = []
        while true {
            guard let some = receiveSome() else { return (out, false) }
            if some.isEmpty { return (out, true) }
            out += some
        }
    }

    public func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// The TCP segments this socket has received, all of them and those that carried data
    /// (the kernel's `tcpi_segs_in` and `tcpi_data_segs_in`). Glibc's `tcp_info` stops before
    /// them, so they are read at their offsets in Linux's (linux/tcp.h, which only appends).
    public func receivedSegments() -> (all: UInt32, withData: UInt32)? {
        var info = [UInt8](repeating: 0, count: 232)
        var length = socklen_t(info.count)
        guard getsockopt(fd, Int32(IPPROTO_TCP), TCP_INFO, &info, &length) == 0, length >= 156 else { return nil }
        func word(at offset: Int) -> UInt32 { info.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) } }
        return (word(at: 140), word(at: 152))
    }
}
