import CLibUV

/// Bytes from the system's cryptographic random source (`getrandom`), as many as asked per
/// call: the standard library's generator makes one system call per 64-bit value.
package enum SystemRandom {
    /// Fills `buffer` with random bytes.
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        if uv_random(nil, nil, base, buffer.count, 0, nil) != 0 {
            // Not expected on Linux; the standard library's source is the same one, word by word.
            var generator = SystemRandomNumberGenerator()
            for offset in 0..<buffer.count {
                buffer[offset] = UInt8(truncatingIfNeeded: generator.next())
            }
        }
    }
}
