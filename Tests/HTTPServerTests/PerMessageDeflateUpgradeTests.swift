@testable import HTTPServer
import XCTest

/// The permessage-deflate part of the upgrade: which offer a request gets, and never with --deflate off.
final class PerMessageDeflateUpgradeTests: XCTestCase {
    private func request(extensions: [String]) -> HTTPRequestHead {
        HTTPRequestHead(method: "GET", target: "/ws/login", headers: [
            ("Host", "localhost:8080"), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"),
        ] + extensions.map { (name: "Sec-WebSocket-Extensions", value: $0) })
    }

    func testOffersInSeveralHeaderLinesAreReadInOrder() {
        let accepted = WebSocketUpgrade.perMessageDeflate(
            request(extensions: ["permessage-deflate; server_max_window_bits=8", "permessage-deflate; server_max_window_bits=11"]),
            enabled: true)
        XCTAssertEqual(accepted?.serverWindowBits, 11)
    }

    func testDisabledOrNoOfferMeansNoCompression() {
        XCTAssertNil(WebSocketUpgrade.perMessageDeflate(request(extensions: ["permessage-deflate"]), enabled: false))
        XCTAssertNil(WebSocketUpgrade.perMessageDeflate(request(extensions: []), enabled: true))
        XCTAssertNotNil(WebSocketUpgrade.perMessageDeflate(request(extensions: ["permessage-deflate"]), enabled: true))
    }
}
