import CLibUV
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A listening TCP socket that hands its connections to one event loop or spreads them over
/// several.
///
/// The acceptor watches the socket from its own loop, accepts each peer itself and hands the
/// socket to the target loop with the fewest open connections that acceptors handed it (a tie
/// goes to the acceptor's own loop, else round-robin), where it becomes a `TCPConnection` for that loop's handler. A connection
/// lives its whole life on the loop it was handed to. Unlike `SO_REUSEPORT`, whose kernel hash
/// can leave one loop with many more of a few hundred peers than another, this keeps the
/// loops within one connection of each other while peers stay.
public final class TCPAcceptor: LoopHandle {
    private let descriptor: Int32
    // `@exclusivity(unchecked)`: the acceptor's loop thread only, and no access spans a call
    // that reaches them again (a dynamic check per accepted peer less).
    @exclusivity(unchecked) private var targets: [Target] = []
    @exclusivity(unchecked) private var nextTarget = 0
    @exclusivity(unchecked) private var pauseTimer: TimerHandle?
    /// Told when accepting stops for good: the restart after a pause failed (the socket
    /// then accepts nothing more). On the acceptor's loop.
    public var onError: ((any Error) -> Void)?

    /// Peers accepted per readiness callback before the loop turns to other work.
    static let acceptsPerWakeUp = 64

    /// Binds to `host:port` (IPv4 or IPv6 literal, or a name such as `localhost` resolved
    /// now; port 0 picks a free port) and listens;
    /// nothing is accepted before `start()`. Throws `EventLoopError` (e.g. `isAddressInUse`).
    /// With `reusePort`, other sockets that set `SO_REUSEPORT` (other processes of the same
    /// user) may listen on the same port, and the kernel spreads new connections over them.
    public init(loop: EventLoop, host: String, port: Int, backlog: Int32 = 511, reusePort: Bool = false) throws {
        let what = "listen on \(host):\(port)"
        let address = try SocketAddress(loop: loop.uvLoop, host: host, port: port, operation: what)
        let family = address.family
        let socketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let descriptor = socket(family, socketType, 0)
        guard descriptor >= 0 else { throw EventLoopError(-errno, what) }
        // As libuv's own bind: a restarted server may reuse the port of connections in TIME_WAIT,
        // and an IPv6 address does not also take the IPv4 one.
        var yes: Int32 = 1
        var no: Int32 = 0
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if reusePort {
            guard setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &yes, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
                let code = -errno
                Glibc.close(descriptor)
                throw EventLoopError(code, "\(what) with SO_REUSEPORT")
            }
        }
        if family == AF_INET6 {
            setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &no, socklen_t(MemoryLayout<Int32>.size))
        }
        // Every accepted socket inherits it (`TCPConnection.adopt`): one call here rather than
        // a system call per connection.
        guard setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            let code = -errno
            Glibc.close(descriptor)
            throw EventLoopError(code, "\(what) with TCP_NODELAY")
        }
        let bound = address.withSocketAddress { bind(descriptor, $0, socklen_t(address.length)) }
        guard bound == 0, Glibc.listen(descriptor, backlog) == 0 else {
            let code = -errno
            Glibc.close(descriptor)
            throw EventLoopError(code, what)
        }
        self.descriptor = descriptor
        super.init(loop: loop, type: UV_POLL)
        do {
            try finishInit(status: uv_poll_init_socket(loop.uvLoop, poll, descriptor), operation: "uv_poll_init_socket")
        } catch {
            Glibc.close(descriptor)
            throw error
        }
    }

    private var poll: UnsafeMutablePointer<uv_poll_t> { rawHandle.assumingMemoryBound(to: uv_poll_t.self) }

    /// Adds a loop that takes a share of the connections; `onConnection` runs on that loop's
    /// thread with each connection handed to it. Call before `start()`.
    public func addTarget(_ target: EventLoop, onConnection: @escaping (TCPConnection) -> Void) {
        targets.append(Target(loop: target, onConnection: onConnection))
    }

    /// Starts accepting.
    public func start() throws {
        try EventLoopError.check(uv_poll_start(poll, Int32(UV_READABLE.rawValue), acceptorIsReadable), "uv_poll_start")
    }

    /// Starts accepting onto the acceptor's own loop alone (a server on one loop): each
    /// connection goes to `onConnection`.
    public func start(onConnection: @escaping (TCPConnection) -> Void) throws {
        addTarget(loop, onConnection: onConnection)
        try start()
    }

    /// The bound port (useful after binding port 0); 0 once closed.
    public var localPort: Int {
        guard !isClosing else { return 0 }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutableBytes(of: &storage) { raw in
            getsockname(descriptor, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
        guard status == 0 else { return 0 }
        return withUnsafeBytes(of: &storage) { raw in
            // sin_port and sin6_port sit at the same offset, in network byte order.
            Int(UInt16(bigEndian: raw.load(fromByteOffset: 2, as: UInt16.self)))
        }
    }

    fileprivate func acceptPending() {
        guard !isClosing else { return }
        for _ in 0..<Self.acceptsPerWakeUp {
            let peer = rxlive_accept_nonblocking(descriptor)
            if peer >= 0 {
                handOff(peer)
                continue
            }
            switch errno {
            case EINTR, ECONNABORTED, EPROTO: continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM: return pause()
            default: return // EAGAIN: no peer waits
            }
        }
    }

    private func handOff(_ peer: Int32) {
        guard let target = leastLoadedTarget() else {
            Glibc.close(peer)
            return
        }
        target.open.value.add(1, ordering: .relaxed)
        if target.loop === loop {
            target.adopt(peer)
        } else if !target.loop.submit({ target.adopt(peer) }) {
            target.discard(peer)
        }
    }

    private func leastLoadedTarget() -> Target? {
        guard !targets.isEmpty else { return nil }
        // The acceptor's own loop wins a tie: a peer it keeps costs no hop to another thread
        // (a wake-up of that loop, and the closure carrying the socket), which one peer after
        // another (each gone before the next comes) would otherwise pay every other time.
        let local = targets.firstIndex { $0.loop === loop }
        var chosen = local ?? nextTarget % targets.count
        var fewest = targets[chosen].open.value.load(ordering: .relaxed)
        for step in 0..<targets.count {
            let index = (nextTarget + step) % targets.count
            let open = targets[index].open.value.load(ordering: .relaxed)
            if open < fewest { (chosen, fewest) = (index, open) }
        }
        if chosen != local { nextTarget = chosen + 1 }
        return targets[chosen]
    }

    /// Out of descriptors: the waiting peers stay in the backlog and the acceptor retries in
    /// 100 ms rather than spinning on a socket that stays readable.
    private func pause() {
        if pauseTimer == nil {
            do {
                pauseTimer = try TimerHandle(loop: loop)
            } catch {
                // Without a timer the socket stays watched: the acceptor retries at the next wake-up.
                return report(error)
            }
        }
        guard let pauseTimer else { return }
        uv_poll_stop(poll)
        pauseTimer.start(after: .milliseconds(100)) { [unowned self] in
            do {
                try start()
            } catch {
                report(error)
            }
        }
    }

    private func report(_ error: any Error) {
        onError?(error)
    }

    override func willClose() {
        pauseTimer?.cancel()
        pauseTimer = nil
        onError = nil
    }

    override func didClose() {
        Glibc.close(descriptor)
    }

    /// One loop the acceptor hands connections to, with its count of open connections.
    // @unchecked Sendable: `onConnection` runs only on `loop`'s thread; `open` is atomic.
    private final class Target: @unchecked Sendable {
        let loop: EventLoop
        let onConnection: (TCPConnection) -> Void
        /// Handed to this loop (by any acceptor) and not closing yet.
        var open: OpenConnectionCount { loop.acceptedOpen }

        init(loop: EventLoop, onConnection: @escaping (TCPConnection) -> Void) {
            self.loop = loop
            self.onConnection = onConnection
        }

        /// On `loop`'s thread: wraps the accepted socket and passes it on.
        func adopt(_ peer: Int32) {
            guard !loop.isStopping, let connection = try? TCPConnection(loop: loop) else { return discard(peer) }
            guard connection.adopt(socket: peer) else {
                connection.close()
                return discard(peer)
            }
            connection.countedAsAccepted = true
            onConnection(connection)
        }

        /// Closes a socket that never became a connection.
        func discard(_ peer: Int32) {
            Glibc.close(peer)
            open.value.subtract(1, ordering: .relaxed)
        }
    }
}

private func acceptorIsReadable(_ handle: UnsafeMutablePointer<uv_poll_t>?, _ status: Int32, _ events: Int32) {
    (LoopHandle.owner(of: handle.map(UnsafeMutableRawPointer.init)) as? TCPAcceptor)?.acceptPending()
}

/// Connections acceptors handed to one loop and not closing yet (`EventLoop.acceptedOpen`);
/// each such connection counts itself out when it starts closing.
final class OpenConnectionCount: Sendable {
    let value = Atomic<Int>(0)
}
