@testable import EventLoop
import Foundation
import XCTest

/// The peer's IPv4 address is named by our own formatter: it must write what `inet_ntop`
/// writes, for every width of each of the four numbers.
final class DottedQuadTests: XCTestCase {
    private func systemName(_ address: in_addr) -> String {
        var address = address
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        XCTAssertNotNil(inet_ntop(AF_INET, &address, &text, socklen_t(text.count)))
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func testDottedQuadMatchesInetNtop() {
        let numbers: [UInt32] = [0, 1, 9, 10, 42, 99, 100, 127, 199, 200, 254, 255]
        for a in numbers {
            for b in numbers {
                for (c, d) in zip(numbers, numbers.reversed()) {
                    let address = in_addr(s_addr: (a << 24 | b << 16 | c << 8 | d).bigEndian)
                    XCTAssertEqual(TCPConnection.dottedQuad(address), systemName(address))
                }
            }
        }
        XCTAssertEqual(TCPConnection.dottedQuad(in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)), "127.0.0.1")
    }

    /// A peer's IPv4 address kept as its bytes reads as what `inet_ntop` writes, every time;
    /// one given as text reads as that text.
    func testAPeerAddressKeptAsBytesReadsAsItsDottedQuad() {
        let address = in_addr(s_addr: UInt32(0xCB00_7109).bigEndian)
        let peer = PeerAddress(ipv4: address)
        XCTAssertEqual(peer.text, "203.0.113.9")
        XCTAssertEqual(peer.text, systemName(address))
        XCTAssertEqual(peer, PeerAddress(ipv4: address))
        XCTAssertEqual(PeerAddress("::1").text, "::1")
        XCTAssertEqual(PeerAddress("").text, "")
    }
}
