/// What the sign-in cache keys a token by: its SipHash-2-4 with a 128-bit output, under a
/// random key of this process. A token is thus found, as in the store, only through a hash
/// of it, and the key is secret, so no client can aim at a collision. It costs a tenth of the
/// store's SHA-256, which an upgrade found in the cache need not pay.
///
/// SipHash is written here because the standard library's `Hasher` (SipHash-1-3) gives 64
/// bits only, and through its API (a call per word) cost four times this; OpenSSL's SipHash
/// sits behind EVP_MAC's provider dispatch. `SignInCacheKeyTests` checks it against OpenSSL.
struct SignInCacheKey: Hashable, Sendable {
    let first: UInt64
    let second: UInt64

    /// Drawn once per process (the system's cryptographic source).
    private static let processKey: (UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }()

    init(token: UnsafeBufferPointer<UInt8>) {
        self.init(UnsafeRawBufferPointer(token), key: Self.processKey)
    }

    /// SipHash-2-4-128 of `bytes` under `key` (Aumasson and Bernstein, "SipHash: a fast
    /// short-input PRF", with the 128-bit output of its reference code).
    init(_ bytes: UnsafeRawBufferPointer, key: (UInt64, UInt64)) {
        var state = SipState(key: key)
        var offset = 0
        while offset + 8 <= bytes.count {
            state.absorb(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        var last = UInt64(truncatingIfNeeded: bytes.count) << 56
        for index in offset..<bytes.count { last |= UInt64(bytes[index]) << (8 * UInt64(index - offset)) }
        state.absorb(last)
        (first, second) = state.finish()
    }

    /// One word suffices: the key's bits are uniformly random already.
    func hash(into hasher: inout Hasher) {
        hasher.combine(first)
    }
}

/// SipHash's four words of state.
private struct SipState {
    var v0, v1, v2, v3: UInt64

    init(key: (UInt64, UInt64)) {
        v0 = key.0 ^ 0x736f_6d65_7073_6575
        v1 = key.1 ^ 0x646f_7261_6e64_6f6d ^ 0xee  // 0xee: the 128-bit output
        v2 = key.0 ^ 0x6c79_6765_6e65_7261
        v3 = key.1 ^ 0x7465_6462_7974_6573
    }

    @inline(__always)
    mutating func absorb(_ word: UInt64) {
        v3 ^= word
        round()
        round()
        v0 ^= word
    }

    mutating func finish() -> (UInt64, UInt64) {
        v2 ^= 0xee
        for _ in 0..<4 { round() }
        let first = v0 ^ v1 ^ v2 ^ v3
        v1 ^= 0xdd
        for _ in 0..<4 { round() }
        return (first, v0 ^ v1 ^ v2 ^ v3)
    }

    @inline(__always)
    private mutating func round() {
        v0 &+= v1; v1 = v1.rotatedLeft(13); v1 ^= v0; v0 = v0.rotatedLeft(32)
        v2 &+= v3; v3 = v3.rotatedLeft(16); v3 ^= v2
        v0 &+= v3; v3 = v3.rotatedLeft(21); v3 ^= v0
        v2 &+= v1; v1 = v1.rotatedLeft(17); v1 ^= v2; v2 = v2.rotatedLeft(32)
    }
}

private extension UInt64 {
    @inline(__always)
    func rotatedLeft(_ count: UInt64) -> UInt64 { self &<< count | self &>> (64 &- count) }
}
