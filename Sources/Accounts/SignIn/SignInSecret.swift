import COpenSSL
import FoundationEssentials
import Glibc

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
        digest(secret).hex
    }

    /// The SHA-256 of `secret`'s UTF-8 as a value, in four words.
    public static func digest(_ secret: String) -> SecretDigest {
        var secret = secret
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let done = secret.withUTF8 { input in
            withUnsafeMutableBytes(of: &words) { output in
                rxlive_sha256(input.baseAddress, input.count, output.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        precondition(done == 1, "OpenSSL's SHA-256 failed")
        return SecretDigest(words: words)
    }


    /// Whether `text` has a secret's shape (base64url, 16 to 64 characters): anything else is
    /// refused before it costs a hash or a lookup.
    public static func isWellFormed(_ text: String) -> Bool {
        var text = text
        // On the string's contiguous bytes: through `utf8`'s iterator it cost 40 instructions a byte.
        return text.withUTF8 { bytes in
            guard bytes.count >= 16 && bytes.count <= 64 else { return false }
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                     UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    continue
                default:
                    return false
                }
            }
            return true
        }
    }

    /// `count` bytes from the system's cryptographic source (the standard library's
    /// generator: getrandom(2) on Linux).
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    static func hex(_ bytes: [UInt8]) -> String {
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
        text = text.replacing("+", with: "-").replacing("/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}

/// A SHA-256 digest in four words: hashable and compared without making a string.
public struct SecretDigest: Hashable, Sendable {
    let words: (UInt64, UInt64, UInt64, UInt64)

    /// The digest in lowercase hex, as the database stores it.
    public var hex: String {
        var bytes = [UInt8](repeating: 0, count: 32)
        withUnsafeBytes(of: words) { source in bytes.withUnsafeMutableBytes { $0.copyMemory(from: source) } }
        return SignInSecret.hex(bytes)
    }

    public static func == (lhs: SecretDigest, rhs: SecretDigest) -> Bool {
        lhs.words == rhs.words
    }

    /// The first word alone: a digest's bits are uniformly random already.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
    }
}
