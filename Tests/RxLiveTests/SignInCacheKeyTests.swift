import COpenSSL
import XCTest
@testable import RxLive

/// The sign-in cache's SipHash-2-4-128 against OpenSSL's SIPHASH (EVP_MAC, 16-byte output),
/// over every length through three words and a token's, under several keys.
final class SignInCacheKeyTests: XCTestCase {
    func testSipHashMatchesOpenSSL() throws {
        let keys: [(UInt64, UInt64)] = [(0x0706_0504_0302_0100, 0x0f0e_0d0c_0b0a_0908), (0, 0), (.max, 0x0123_4567_89ab_cdef)]
        for key in keys {
            for length in Array(0...25) + [43, 64] {
                let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
                let ours = message.withUnsafeBytes { SignInCacheKey($0, key: key) }
                let theirs = try openSSLSipHash(message, key: key)
                XCTAssertEqual(ours.first, theirs.0, "length \(length)")
                XCTAssertEqual(ours.second, theirs.1, "length \(length)")
            }
        }
    }

    func testTokensThatDifferAnywhereGetDifferentKeys() {
        let token = Array("Yq3vJ9x0Lr5bT2mN8cW1eF6hK4pS7dA0gZ9uR3iO5yB".utf8)
        let key = token.withUnsafeBufferPointer { SignInCacheKey(token: $0) }
        XCTAssertEqual(key, token.withUnsafeBufferPointer { SignInCacheKey(token: $0) })
        for index in token.indices {
            var changed = token
            changed[index] ^= 0x01
            XCTAssertNotEqual(key, changed.withUnsafeBufferPointer { SignInCacheKey(token: $0) }, "byte \(index)")
        }
        // A trailing zero byte is a different token, not the same words.
        XCTAssertNotEqual(key, (token + [0]).withUnsafeBufferPointer { SignInCacheKey(token: $0) })
    }

    private func openSSLSipHash(_ message: [UInt8], key: (UInt64, UInt64)) throws -> (UInt64, UInt64) {
        let mac = try XCTUnwrap(EVP_MAC_fetch(nil, "SIPHASH", nil))
        defer { EVP_MAC_free(mac) }
        let context = try XCTUnwrap(EVP_MAC_CTX_new(mac))
        defer { EVP_MAC_CTX_free(context) }
        var size = 16
        var keyBytes = [UInt8](repeating: 0, count: 16)
        withUnsafeBytes(of: key.0.littleEndian) { keyBytes.replaceSubrange(0..<8, with: $0) }
        withUnsafeBytes(of: key.1.littleEndian) { keyBytes.replaceSubrange(8..<16, with: $0) }
        var output = [UInt8](repeating: 0, count: 16)
        var written = 0
        let done = "size".withCString { name -> Bool in
            var parameters = [OSSL_PARAM_construct_size_t(name, &size), OSSL_PARAM_construct_end()]
            return EVP_MAC_init(context, keyBytes, 16, &parameters) == 1
                && EVP_MAC_update(context, message, message.count) == 1
                && EVP_MAC_final(context, &output, &written, 16) == 1
        }
        XCTAssertTrue(done)
        XCTAssertEqual(written, 16)
        let words = output.withUnsafeBytes { ($0.loadUnaligned(fromByteOffset: 0, as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
        return (UInt64(littleEndian: words.0), UInt64(littleEndian: words.1))
    }
}
