import COpenSSL
import Foundation

/// The random secrets of signing in: session tokens, hand-over codes and session ids, and
/// the hash under which the database keeps a token or code (never the secret itself).
public enum SignInSecret {
    /// A new session token: 256 random bits, base64url without padding (43 characters).
    public static func makeToken() -> String { base64URL(randomBytes(32)) }

    /// A new hand-over code: 128 random bits, base64url (22 characters).
    public static func makeCode() -> String { base64URL(randomBytes(16)) }

    /// A new public id of a signed-in session (64 random bits in hex): what `rxlive user
    /// sessions` lists and `rxlive user revoke` takes, so a token never has to be shown.
    public static func makeSessionID() -> String {
        hex(randomBytes(8))
    }

    /// The SHA-256 of `secret`'s UTF-8 in lowercase hex: what is stored and looked up. A
    /// token has 256 random bits, so a fast hash suffices (no salt or stretching is needed
    /// against guessing, unlike a password).
    public static func hash(_ secret: String) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        var bytes = Array(secret.utf8)
        _ = bytes.withUnsafeMutableBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                SHA256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        bytes.removeAll()
        return hex(digest)
    }

    /// Whether `text` has a secret's shape (base64url, 16 to 64 characters): anything else is
    /// refused before it costs a hash or a lookup.
    public static func isWellFormed(_ text: some StringProtocol) -> Bool {
        let count = text.utf8.count
        guard count >= 16 && count <= 64 else { return false }
        return text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    /// `count` bytes from the system's cryptographic source (the standard library's
    /// generator: getrandom(2) on Linux).
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func base64URL(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}
