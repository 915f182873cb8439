import XCTest
@testable import WebSocket

final class WebSocketHandshakeTests: XCTestCase {
    func testAcceptValueOfRFCExample() {
        // RFC 6455 section 1.3.
        XCTAssertEqual(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ=="),
                       "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    /// Spaces and tabs around the key are not part of it, on the byte path (a String or a
    /// Substring key) and on the Character path (a key with non-ASCII text around it).
    func testAcceptValueTrimsTheKeyOnEveryPath() {
        let expected = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
        XCTAssertEqual(WebSocketHandshake.acceptValue(forKey: " \tdGhlIHNhbXBsZSBub25jZQ==\t "), expected)
        let header = "key: dGhlIHNhbXBsZSBub25jZQ== "
        XCTAssertEqual(WebSocketHandshake.acceptValue(forKey: header.dropFirst(4)), expected)
        XCTAssertNotEqual(WebSocketHandshake.acceptValue(forKey: "é dGhlIHNhbXBsZSBub25jZQ=="), expected)
        XCTAssertEqual(WebSocketHandshake.acceptValue(forKey: "é dGhlIHNhbXBsZSBub25jZQ=="),
                       WebSocketHandshake.acceptValue(forKey: String("é dGhlIHNhbXBsZSBub25jZQ==")))
    }

    /// The byte path (ASCII) and the Character path (other text) trim and judge alike.
    func testKeyAndVersionChecksTrimOnEveryPath() {
        XCTAssertTrue(WebSocketHandshake.isValidKey("\t dGhlIHNhbXBsZSBub25jZQ== "))
        XCTAssertTrue(WebSocketHandshake.isValidKey("x: dGhlIHNhbXBsZSBub25jZQ==".dropFirst(3)))
        XCTAssertFalse(WebSocketHandshake.isValidKey("dGhlIHNhbXBsZSBub25jZQ==é"))
        XCTAssertFalse(WebSocketHandshake.isValidKey("dGhlIHNhbXBsZSBub25jZQ= ="))
        XCTAssertTrue(WebSocketHandshake.isSupportedVersion(" 13\t"))
        XCTAssertFalse(WebSocketHandshake.isSupportedVersion("13, 8"))
        XCTAssertFalse(WebSocketHandshake.isSupportedVersion("１３"))
        XCTAssertFalse(WebSocketHandshake.isSupportedVersion("13é"))
    }

    func testAcceptValueOfAnotherKey() {
        // Value computed independently with `printf %s KEY+GUID | openssl sha1 -binary | base64`.
        XCTAssertEqual(WebSocketHandshake.acceptValue(forKey: "x3JJHMbDL1EzLkh9GBhXDw=="),
                       "HSmrc0sMlYUkAGmm5OPpG2HaGWk=")
    }

    func testValidKeys() {
        XCTAssertTrue(WebSocketHandshake.isValidKey("dGhlIHNhbXBsZSBub25jZQ=="))
        XCTAssertTrue(WebSocketHandshake.isValidKey("  AAAAAAAAAAAAAAAAAAAAAA== "))
        XCTAssertTrue(WebSocketHandshake.isValidKey("/////////////////////w=="))
    }

    func testInvalidKeys() {
        XCTAssertFalse(WebSocketHandshake.isValidKey(""))
        XCTAssertFalse(WebSocketHandshake.isValidKey("dGhlIHNhbXBsZSBub25jZQ="))     // 23 characters
        XCTAssertFalse(WebSocketHandshake.isValidKey("dGhlIHNhbXBsZSBub25jZQ==="))   // 25
        XCTAssertFalse(WebSocketHandshake.isValidKey("dGhlIHNhbXBsZSBub25jZQ=A"))    // not "=="
        XCTAssertFalse(WebSocketHandshake.isValidKey("dGhlIHNhbXBsZSBub25jZ!=="))    // not base64
        XCTAssertFalse(WebSocketHandshake.isValidKey("dGhlIHNhbXBsZSBub25jZR=="))    // stray low bits
        XCTAssertFalse(WebSocketHandshake.isValidKey("dGhlIHNhbXBsZSBub25jZSBvaw=="))  // 20 bytes
    }

    /// Every byte value at every one of the first 21 places: valid exactly when it is a base64
    /// character (the vector check against the alphabet written out).
    func testEachByteAtEachPlaceOfAKeyIsJudgedByTheBase64Alphabet() {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let key = Array("dGhlIHNhbXBsZSBub25jZQ==".utf8)
        for place in 0..<21 {
            for byte in UInt8.min...UInt8.max {
                var bytes = key
                bytes[place] = byte
                let valid = bytes.withUnsafeBufferPointer { WebSocketHandshake.isValidKey(utf8: $0) }
                XCTAssertEqual(valid, alphabet.contains(byte), "byte \(byte) at \(place)")
            }
        }
    }

    func testVersion() {
        XCTAssertTrue(WebSocketHandshake.isSupportedVersion("13"))
        XCTAssertTrue(WebSocketHandshake.isSupportedVersion(" 13 "))
        XCTAssertFalse(WebSocketHandshake.isSupportedVersion("8"))
        XCTAssertFalse(WebSocketHandshake.isSupportedVersion("13, 8"))
        XCTAssertFalse(WebSocketHandshake.isSupportedVersion(""))
    }

    func testHeaderTokens() {
        XCTAssertTrue(WebSocketHandshake.headerValue("keep-alive, Upgrade", containsToken: "upgrade"))
        XCTAssertTrue(WebSocketHandshake.headerValue("WebSocket", containsToken: "websocket"))
        XCTAssertFalse(WebSocketHandshake.headerValue("keep-alive", containsToken: "upgrade"))
        XCTAssertFalse(WebSocketHandshake.headerValue("upgrades", containsToken: "upgrade"))
    }

    func testSwitchingProtocolsResponse() {
        let response = WebSocketHandshake.switchingProtocolsResponse(forKey: "dGhlIHNhbXBsZSBub25jZQ==")
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
        XCTAssertTrue(response.contains("\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
        XCTAssertTrue(response.hasSuffix("\r\n\r\n"))
    }

    /// A key given as bytes (a request's field, read in place) is judged and answered as the
    /// same key given as a string, valid or not, with spaces around it or not.
    func testAKeysBytesAreJudgedAndAnsweredAsItsString() {
        let keys = ["dGhlIHNhbXBsZSBub25jZQ==", "\t dGhlIHNhbXBsZSBub25jZQ== ", "x3JJHMbDL1EzLkh9GBhXDw==", "/////////////////////w==",
                    "", "dGhlIHNhbXBsZSBub25jZQ=", "dGhlIHNhbXBsZSBub25jZR==", "dGhlIHNhbXBsZSBub25jZQ==é", "é dGhlIHNhbXBsZSBub25jZQ=="]
        for key in keys {
            var text = key
            let (valid, response) = text.withUTF8 { bytes in
                var response = ""
                WebSocketHandshake.withSwitchingProtocolsResponse(forKeyBytes: bytes, extensions: "permessage-deflate") {
                    response = String(decoding: $0, as: UTF8.self)
                }
                return (WebSocketHandshake.isValidKey(utf8: bytes), response)
            }
            XCTAssertEqual(valid, WebSocketHandshake.isValidKey(key), key)
            XCTAssertEqual(response, WebSocketHandshake.switchingProtocolsResponse(forKey: key, extensions: "permessage-deflate"), key)
        }
    }
}
