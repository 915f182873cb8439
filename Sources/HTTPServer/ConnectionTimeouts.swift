import EventLoop

/// A configuration's connection timeouts in the milliseconds `TCPConnection` counts in,
/// converted once per server: a `Duration` conversion costs about 200 instructions, and a
/// session set three deadlines and two lingers.
struct ConnectionTimeouts {
    let head: UInt64
    let idle: UInt64
    let ping: UInt64?
    let pong: UInt64
    let close: UInt64
    /// The close timeout as the linger after FIN of an upgraded connection.
    let closeLinger: UInt32
    /// The linger after FIN of an HTTP connection.
    let httpLinger: UInt32

    init(_ configuration: HTTPServerConfiguration) {
        head = TCPConnection.deadlineMilliseconds(of: configuration.headTimeout)
        idle = TCPConnection.deadlineMilliseconds(of: configuration.idleTimeout)
        ping = configuration.pingInterval.map(TCPConnection.deadlineMilliseconds(of:))
        pong = TCPConnection.deadlineMilliseconds(of: configuration.pongTimeout)
        close = TCPConnection.deadlineMilliseconds(of: configuration.closeTimeout)
        closeLinger = TCPConnection.lingerMilliseconds(of: configuration.closeTimeout)
        httpLinger = TCPConnection.lingerMilliseconds(of: .seconds(2))
    }
}
