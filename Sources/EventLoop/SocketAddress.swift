import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// The socket address an acceptor binds or a connection connects to: an IPv4 or IPv6 literal
/// as written, or a host name (`localhost`) resolved once, when it is made, through libuv's
/// getaddrinfo. A name's first
/// IPv4 address is taken when it has one (so `localhost` is 127.0.0.1, as browsers try
/// first), else its first IPv6 address.
struct SocketAddress {
    var storage = sockaddr_storage()
    var family: Int32 = AF_INET
    var length = MemoryLayout<sockaddr_in>.size

    /// The address of `host:port`; throws `EventLoopError` (`EAI_NONAME` and the like) when
    /// `host` is neither a literal nor a name that resolves. Resolving blocks the calling
    /// thread: acceptors bind at start, and only clients (benchmarks) connect.
    init(loop: UnsafeMutablePointer<uv_loop_t>, host: String, port: Int, operation: String) throws {
        let isV4 = withUnsafeMutableBytes(of: &storage) { raw in
            uv_ip4_addr(host, Int32(port), raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)) == 0
        }
        if isV4 { return }
        let isV6 = withUnsafeMutableBytes(of: &storage) { raw in
            uv_ip6_addr(host, Int32(port), raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)) == 0
        }
        if isV6 {
            family = AF_INET6
            length = MemoryLayout<sockaddr_in6>.size
            return
        }
        try resolve(loop: loop, host: host, port: port, operation: operation)
    }

    private mutating func resolve(loop: UnsafeMutablePointer<uv_loop_t>, host: String, port: Int, operation: String) throws {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var request = uv_getaddrinfo_t()
        // Without a callback libuv resolves synchronously and returns the status.
        try EventLoopError.check(uv_getaddrinfo(loop, &request, nil, host, nil, &hints), operation)
        defer { uv_freeaddrinfo(request.addrinfo) }
        var first: UnsafeMutablePointer<addrinfo>?
        var chosen: UnsafeMutablePointer<addrinfo>?
        var cursor = request.addrinfo
        while let entry = cursor {
            let family = entry.pointee.ai_family
            if family == AF_INET || family == AF_INET6 {
                if first == nil { first = entry }
                if family == AF_INET { chosen = entry; break }
            }
            cursor = entry.pointee.ai_next
        }
        guard let entry = chosen ?? first, let address = entry.pointee.ai_addr else {
            throw EventLoopError(UV_EAI_NONAME.rawValue, operation)
        }
        family = entry.pointee.ai_family
        length = Int(entry.pointee.ai_addrlen)
        withUnsafeMutableBytes(of: &storage) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(start: address, count: length))
            // sin_port and sin6_port sit at the same offset, in network byte order.
            raw.storeBytes(of: UInt16(port).bigEndian, toByteOffset: 2, as: UInt16.self)
        }
    }

    /// Calls `body` with the address as a `sockaddr` pointer.
    func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>) throws -> Result) rethrows -> Result {
        try withUnsafeBytes(of: storage) { raw in
            try body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self))
        }
    }
}
