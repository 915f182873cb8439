import COpenSSL

/// A TLS 1.3 cipher suite as the record layer needs it: its AEAD, the hash of its key
/// schedule, and the lengths of its key and of that hash.
struct TLS13CipherSuite {
    let cipher: OpaquePointer
    let digestName: StaticString
    let keyLength: Int
    let hashLength: Int

    /// The suite OpenSSL negotiated, by its two-byte code; nil for any other.
    init?(code: UInt16) {
        switch code {
        case 0x1301: (cipher, digestName, keyLength, hashLength) = (Self.aes128GCM, "SHA256", 16, 32)
        case 0x1302: (cipher, digestName, keyLength, hashLength) = (Self.aes256GCM, "SHA384", 32, 48)
        case 0x1303: (cipher, digestName, keyLength, hashLength) = (Self.chaCha20Poly1305, "SHA256", 32, 32)
        default: return nil
        }
    }

    // nonisolated(unsafe): fetched once by the lazy global initialisers; OpenSSL's fetched
    // algorithms are immutable and may be used from any thread.
    nonisolated(unsafe) static let aes128GCM = fetchCipher("AES-128-GCM")
    nonisolated(unsafe) static let aes256GCM = fetchCipher("AES-256-GCM")
    nonisolated(unsafe) static let chaCha20Poly1305 = fetchCipher("ChaCha20-Poly1305")
    nonisolated(unsafe) static let hkdf: OpaquePointer = {
        guard let kdf = EVP_KDF_fetch(nil, "HKDF", nil) else { fatalError("OpenSSL has no HKDF") }
        return kdf
    }()

    private static func fetchCipher(_ name: String) -> OpaquePointer {
        guard let cipher = EVP_CIPHER_fetch(nil, name, nil) else { fatalError("OpenSSL has no \(name)") }
        return cipher
    }
}

/// HKDF-Expand-Label (RFC 8446 §7.1) with one suite's hash, through OpenSSL's HKDF. One
/// context serves every derivation of a key change: setting the digest fetches it by name
/// (some 20,000 instructions), and OpenSSL 3.0 cannot copy an HKDF context.
struct TLS13KeyExpander: ~Copyable {
    private let context: OpaquePointer

    init?(_ suite: TLS13CipherSuite) {
        guard let context = EVP_KDF_CTX_new(TLS13CipherSuite.hkdf) else { return nil }
        var mode = Int32(EVP_KDF_HKDF_MODE_EXPAND_ONLY)
        // Parameter names and the digest's name are static strings: OSSL_PARAM keeps pointers.
        let set = withUnsafeMutablePointer(to: &mode) { mode in
            let parameters = [
                OSSL_PARAM_construct_int(Self.cString("mode"), mode),
                OSSL_PARAM_construct_utf8_string(Self.cString("digest"), UnsafeMutablePointer(mutating: Self.cString(suite.digestName)), 0),
                OSSL_PARAM_construct_end(),
            ]
            return EVP_KDF_CTX_set_params(context, parameters)
        }
        guard set == 1 else {
            EVP_KDF_CTX_free(context)
            return nil
        }
        self.context = context
    }

    deinit { EVP_KDF_CTX_free(context) }

    /// HKDF-Expand-Label(secret, label, "", length).
    func expandLabel(_ secret: UnsafeRawBufferPointer, _ label: String, length: Int) -> [UInt8]? {
        let fullLabel = Array("tls13 \(label)".utf8)
        let info = [UInt8(length >> 8), UInt8(length & 0xff), UInt8(fullLabel.count)] + fullLabel + [0]
        var output = [UInt8](repeating: 0, count: length)
        // Each call sets the key and the info anew (OpenSSL replaces both).
        let derived = info.withUnsafeBytes { info in
            let parameters = [
                OSSL_PARAM_construct_octet_string(Self.cString("key"), UnsafeMutableRawPointer(mutating: secret.baseAddress), secret.count),
                OSSL_PARAM_construct_octet_string(Self.cString("info"), UnsafeMutableRawPointer(mutating: info.baseAddress), info.count),
                OSSL_PARAM_construct_end(),
            ]
            return EVP_KDF_derive(context, &output, length, parameters)
        }
        return derived == 1 ? output : nil
    }

    private static func cString(_ string: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(string.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}

/// Overwrites `secret`'s bytes (in a way the compiler keeps) and empties it.
func wipe(_ secret: inout [UInt8]) {
    secret.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) }
    secret = []
}
