import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// A peer's IP address as its socket gave it: an IPv4 address kept as its four bytes and
/// written as text only when read (most sessions never read it: about 300 instructions a
/// session), any other kept as text. The same text whenever it is read.
package struct PeerAddress: Sendable, Equatable {
    private enum Form: Equatable {
        case ipv4(in_addr_t)
        case text(String)
    }

    private let form: Form

    /// An address already written as text.
    package init(_ text: String) {
        form = .text(text)
    }

    /// An IPv4 address (network byte order, as in `sockaddr_in`).
    package init(ipv4 address: in_addr) {
        form = .ipv4(address.s_addr)
    }

    /// The address as text (`127.0.0.1`, `::1`).
    package var text: String {
        switch form {
        case .ipv4(let bytes): TCPConnection.dottedQuad(in_addr(s_addr: bytes))
        case .text(let text): text
        }
    }
}

// The peer's address as text, IPv4 written here rather than by `inet_ntop`.
extension TCPConnection {
    /// The peer's IP address as text (`127.0.0.1`, `::1`), `nil` when the socket has none.
    public var peerAddress: String? { peerIPAddress?.text }

    /// The peer's IP address, its text made when read; `nil` when the socket has none.
    package var peerIPAddress: PeerAddress? {
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> PeerAddress? in
                guard uv_tcp_getpeername(tcp, address, &length) == 0 else { return nil }
                if Int32(address.pointee.sa_family) == AF_INET {
                    return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { PeerAddress(ipv4: $0.pointee.sin_addr) }
                }
                // Named into the stack (INET6_ADDRSTRLEN is 46): no arrays per connection.
                return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { name -> PeerAddress? in
                    guard let base = name.baseAddress, uv_ip_name(address, base, name.count) == 0 else { return nil }
                    return PeerAddress(String(cString: base))
                }
            }
        }
    }

    /// An IPv4 address in dotted-decimal form, written here: `uv_ip_name` (inet_ntop, a
    /// formatted print per byte) cost about 2,200 instructions per connection. Written straight
    /// into the string's own (small, inline) storage: through a stack buffer and
    /// `String(decoding:)` it cost about 110 instructions more.
    static func dottedQuad(_ address: in_addr) -> String {
        let value = UInt32(bigEndian: address.s_addr)
        return String(unsafeUninitializedCapacity: 15) { text in
            var count = 0
            for shift in stride(from: 24, through: 0, by: -8) {
                if shift != 24 {
                    text[count] = UInt8(ascii: ".")
                    count += 1
                }
                let byte = UInt8(truncatingIfNeeded: value >> UInt32(shift))
                if byte >= 100 {
                    text[count] = 0x30 + byte / 100
                    count += 1
                }
                if byte >= 10 {
                    text[count] = 0x30 + byte / 10 % 10
                    count += 1
                }
                text[count] = 0x30 + byte % 10
                count += 1
            }
            return count
        }
    }
}
