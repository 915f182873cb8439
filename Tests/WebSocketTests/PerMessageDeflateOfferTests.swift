import XCTest
@testable import WebSocket

final class PerMessageDeflateOfferTests: XCTestCase {
    // MARK: the header grammar

    func testExtensionListWithQuotedValuesAndSeveralHeaders() {
        let elements = WebSocketExtensionHeader.parse([
            "permessage-deflate; client_max_window_bits=\"10\" , x-other",
            "PerMessage-Deflate;server_no_context_takeover",
        ])
        XCTAssertEqual(elements, [
            WebSocketExtensionElement(name: "permessage-deflate", parameters: [.init(name: "client_max_window_bits", value: "10")]),
            WebSocketExtensionElement(name: "x-other"),
            WebSocketExtensionElement(name: "permessage-deflate", parameters: [.init(name: "server_no_context_takeover")]),
        ])
    }

    func testBrokenElementIsNilAndTheOthersStillParse() {
        let elements = WebSocketExtensionHeader.parse([
            "permessage-deflate; =3, permessage-deflate; a=\"b c\", , permessage-deflate; x=\"unterminated, permessage-deflate",
        ])
        // A quoted comma does not split: the unterminated quote swallows the rest of the list.
        XCTAssertEqual(elements, [nil, nil, nil])
        XCTAssertEqual(WebSocketExtensionHeader.parse(["bad token(, permessage-deflate"]),
                       [nil, WebSocketExtensionElement(name: "permessage-deflate")])
    }

    // MARK: offers

    func testBrowserOfferIsAcceptedWithClientNoContextTakeover() {
        // What Chromium and Python websockets send.
        let accepted = PerMessageDeflateOffer.negotiate(["permessage-deflate; client_max_window_bits"])
        XCTAssertEqual(accepted?.serverWindowBits, 15)
        XCTAssertEqual(accepted?.responseHeaderValue, "permessage-deflate; client_no_context_takeover")
    }

    func testEveryParameterIsRead() {
        let offers = PerMessageDeflateOffer.offers(in: [
            "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10; client_max_window_bits=12",
        ])
        XCTAssertEqual(offers, [PerMessageDeflateOffer(serverNoContextTakeover: true, clientNoContextTakeover: true,
                                                       serverMaxWindowBits: 10, clientMaxWindowBits: .bits(12))])
        XCTAssertEqual(offers.first?.accept()?.responseHeaderValue,
                       "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10")
    }

    func testWindowBitsRange() {
        for bits in 8...15 {
            XCTAssertEqual(PerMessageDeflateOffer.offers(in: ["permessage-deflate; client_max_window_bits=\(bits)"]).count, 1, "\(bits)")
            XCTAssertEqual(PerMessageDeflateOffer.offers(in: ["permessage-deflate; server_max_window_bits=\(bits)"]).first?.serverMaxWindowBits, bits)
        }
        for value in ["7", "16", "0", "09", "-9", "1a", "", "99999999999999999999"] {
            XCTAssertEqual(PerMessageDeflateOffer.offers(in: ["permessage-deflate; server_max_window_bits=\(value)"]), [], value)
            XCTAssertEqual(PerMessageDeflateOffer.offers(in: ["permessage-deflate; client_max_window_bits=\(value)"]), [], value)
        }
    }

    func testMalformedOffersAreDeclined() {
        let malformed = [
            "permessage-deflate; server_max_window_bits",              // needs a value
            "permessage-deflate; server_no_context_takeover=1",        // takes no value
            "permessage-deflate; client_no_context_takeover=\"x\"",
            "permessage-deflate; client_max_window_bits; client_max_window_bits=10",   // twice
            "permessage-deflate; server_no_context_takeover; server_no_context_takeover",
            "permessage-deflate; mystery",                             // unknown parameter
            "permessage-deflate; client_max_window_bits=\"1 0\"",      // quoted value not a token
        ]
        for header in malformed {
            XCTAssertNil(PerMessageDeflateOffer.negotiate([header]), header)
        }
    }

    func testFirstAcceptableOfferWinsAndOthersAreSkipped() {
        // An 8-bit server window is beyond zlib's raw deflate: that offer is declined, the next taken.
        let accepted = PerMessageDeflateOffer.negotiate([
            "x-webkit-deflate-frame, permessage-deflate; mystery",
            "permessage-deflate; server_max_window_bits=8, permessage-deflate; server_max_window_bits=9, permessage-deflate",
        ])
        XCTAssertEqual(accepted?.serverWindowBits, 9)
        XCTAssertEqual(accepted?.responseHeaderValue, "permessage-deflate; client_no_context_takeover; server_max_window_bits=9")
        XCTAssertNil(PerMessageDeflateOffer.negotiate(["permessage-deflate; server_max_window_bits=8"]))
        XCTAssertNil(PerMessageDeflateOffer.negotiate(["x-webkit-deflate-frame"]))
        XCTAssertNil(PerMessageDeflateOffer.negotiate([]))
    }

    func testResponseHeaderInTheHandshake() {
        let response = WebSocketHandshake.switchingProtocolsResponse(
            forKey: "dGhlIHNhbXBsZSBub25jZQ==", extensions: "permessage-deflate; client_no_context_takeover")
        XCTAssertTrue(response.contains("\r\nSec-WebSocket-Extensions: permessage-deflate; client_no_context_takeover\r\n"))
        XCTAssertTrue(response.hasSuffix("\r\n\r\n"))
        XCTAssertFalse(WebSocketHandshake.switchingProtocolsResponse(forKey: "dGhlIHNhbXBsZSBub25jZQ==").contains("Extensions"))
    }
}
