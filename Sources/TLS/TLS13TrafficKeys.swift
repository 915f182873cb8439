import COpenSSL

/// One direction's TLS 1.3 application traffic keys (RFC 8446 §7.3): the secret they come
/// from, the AEAD context keyed with it, the IV and the next record's sequence number.
/// Loop thread only.
struct TLS13TrafficKeys: ~Copyable {
    static let tagLength = 16

    let suite: TLS13CipherSuite
    private let context: OpaquePointer
    private let encrypts: Bool
    /// The current traffic secret, in memory of our own so that it can be wiped.
    private let secret: UnsafeMutableRawBufferPointer
    /// The IV's first 4 bytes as they are, and its last 8 as a big-endian number.
    private var ivHead: UInt32 = 0
    private var ivTail: UInt64 = 0
    /// The next record's sequence number.
    private(set) var sequence: UInt64

    /// Keys from `secret` (a traffic secret of `suite`'s hash length) whose first record has
    /// number `sequence`; nil when OpenSSL cannot make them.
    init?(suite: TLS13CipherSuite, secret: [UInt8], sequence: UInt64, encrypts: Bool, expander: borrowing TLS13KeyExpander) {
        guard secret.count == suite.hashLength, let context = EVP_CIPHER_CTX_new() else { return nil }
        let iv = secret.withUnsafeBytes { Self.key(context, suite: suite, secret: $0, encrypts: encrypts, expander: expander) }
        guard let iv else {
            EVP_CIPHER_CTX_free(context)
            return nil
        }
        self.suite = suite
        self.context = context
        self.encrypts = encrypts
        self.secret = .allocate(byteCount: secret.count, alignment: 8)
        self.secret.copyBytes(from: secret)
        self.sequence = sequence
        (ivHead, ivTail) = iv
    }

    deinit {
        EVP_CIPHER_CTX_free(context)
        OPENSSL_cleanse(secret.baseAddress, secret.count)
        secret.deallocate()
    }

    /// Keys `context` from `secret` and returns the IV, as `ivHead` and `ivTail` hold it.
    private static func key(_ context: OpaquePointer, suite: TLS13CipherSuite, secret: UnsafeRawBufferPointer,
                            encrypts: Bool, expander: borrowing TLS13KeyExpander) -> (UInt32, UInt64)? {
        guard var key = expander.expandLabel(secret, "key", length: suite.keyLength),
              let iv = expander.expandLabel(secret, "iv", length: 12) else { return nil }
        defer { wipe(&key) }
        guard EVP_CipherInit_ex(context, suite.cipher, nil, key, nil, encrypts ? 1 : 0) == 1 else { return nil }
        return iv.withUnsafeBytes {
            ($0.loadUnaligned(as: UInt32.self), UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: 4, as: UInt64.self)))
        }
    }

    /// The next generation of keys (KeyUpdate, RFC 8446 §7.2), numbered from 0 again.
    mutating func update() -> Bool {
        guard let expander = TLS13KeyExpander(suite),
              var next = expander.expandLabel(UnsafeRawBufferPointer(secret), "traffic upd", length: suite.hashLength)
        else { return false }
        secret.copyBytes(from: next)
        wipe(&next)
        guard let iv = Self.key(context, suite: suite, secret: UnsafeRawBufferPointer(secret), encrypts: encrypts,
                                expander: expander) else { return false }
        (ivHead, ivTail) = iv
        sequence = 0
        return true
    }

    /// Sets the AEAD's nonce for the next record (the IV with the sequence number XORed into
    /// its end) and feeds it the record's header as associated data.
    private mutating func start(header: UnsafeRawPointer) -> Bool {
        guard sequence < UInt64.max else { return false } // a KeyUpdate is due long before
        var nonce: (UInt32, UInt32, UInt32) = (0, 0, 0)
        withUnsafeMutableBytes(of: &nonce) {
            $0.storeBytes(of: ivHead, as: UInt32.self)
            $0.storeBytes(of: (ivTail ^ sequence).bigEndian, toByteOffset: 4, as: UInt64.self)
        }
        sequence += 1
        var count: Int32 = 0
        return withUnsafeBytes(of: &nonce) { nonce in
            EVP_CipherInit_ex(context, nil, nil, nil, nonce.baseAddress?.assumingMemoryBound(to: UInt8.self), -1) == 1
                && EVP_CipherUpdate(context, nil, &count, header.assumingMemoryBound(to: UInt8.self), 5) == 1
        }
    }

    /// Encrypts the `count` bytes after the 5-byte record header at `record` in place and
    /// appends the tag; the header must already give the record's full length.
    mutating func seal(record: UnsafeMutableRawPointer, count: Int) -> Bool {
        let body = (record + 5).assumingMemoryBound(to: UInt8.self)
        var written: Int32 = 0
        var final: Int32 = 0
        return start(header: record)
            && EVP_CipherUpdate(context, body, &written, body, Int32(count)) == 1
            && EVP_CipherFinal_ex(context, body + Int(written), &final) == 1
            && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(Self.tagLength), body + count) == 1
    }

    /// Decrypts and authenticates a whole record (header and body) into `plaintext`, which
    /// has room for the body less the tag; false when the record does not authenticate.
    mutating func open(record: UnsafeRawBufferPointer, into plaintext: UnsafeMutableRawPointer) -> Bool {
        guard let base = record.baseAddress, record.count > 5 + Self.tagLength else { return false }
        let count = record.count - 5 - Self.tagLength
        let output = plaintext.assumingMemoryBound(to: UInt8.self)
        var written: Int32 = 0
        var final: Int32 = 0
        return start(header: base)
            && EVP_CipherUpdate(context, output, &written, (base + 5).assumingMemoryBound(to: UInt8.self), Int32(count)) == 1
            && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(Self.tagLength),
                                   UnsafeMutableRawPointer(mutating: base + 5 + count)) == 1
            && EVP_CipherFinal_ex(context, output + Int(written), &final) == 1
    }
}
