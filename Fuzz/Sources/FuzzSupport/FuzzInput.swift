import CFuzzDriver
#if canImport(Glibc)
import Glibc
#endif

/// A fuzz input read front to back as a series of choices (option bytes, split sizes)
/// followed by the payload, so that libFuzzer's mutations steer both.
public struct FuzzInput {
    public let bytes: UnsafeBufferPointer<UInt8>
    public private(set) var offset = 0

    /// The `size` bytes at `data` (libFuzzer's arguments).
    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)
    }

    /// The next byte, or 0 when the input is used up.
    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next two bytes as a big-endian number.
    public mutating func uint16() -> UInt16 {
        UInt16(byte()) << 8 | UInt16(byte())
    }

    /// Every byte not read yet; the input is then used up.
    public mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[min(offset, bytes.count)...])
    }
}

/// Stops the process with `message` when an invariant does not hold: libFuzzer records the
/// input as a crash, like any other.
public func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                      file: StaticString = #fileID, line: UInt = #line) {
    if !condition() { fatalError("invariant violated: \(message())", file: file, line: line) }
}

/// Splits `bytes` into pieces whose sizes cycle through `pattern` (zeros count as one), the
/// way reads from a socket cut a stream anywhere.
public func pieces(of bytes: [UInt8], sizes pattern: [UInt8]) -> [ArraySlice<UInt8>] {
    let sizes = pattern.isEmpty ? [UInt8(1)] : pattern
    var result: [ArraySlice<UInt8>] = []
    var start = 0
    var index = 0
    while start < bytes.count {
        let end = min(bytes.count, start + max(1, Int(sizes[index % sizes.count])))
        result.append(bytes[start..<end])
        start = end
        index += 1
    }
    return result
}

/// Runs libFuzzer, with the process's arguments, on the executable's
/// `LLVMFuzzerTestOneInput` and exits with its status. (Referring to the target through C
/// keeps Swift from emitting a second copy of the `@_cdecl` symbol in main.swift.)
public func runFuzzer() -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput))
}
