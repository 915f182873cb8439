import FuzzSupport
import WebSocket

/// The permessage-deflate inflater under a message limit, as `--max-message-size` sets it.
///
/// Input: a mode byte, a 2-byte limit, then either a compressed payload (mode even) or a
/// message to compress first with a window of 9–15 bits (mode odd).
///
/// Invariants:
/// - a message never passes the limit;
/// - the limited outcome agrees with an unlimited inflation of the same bytes: the same
///   message when it fits, `.tooBig` when it does not, `.corrupt` or `.tooBig` for bad data;
/// - the inflater the loop shares gives what a fresh one gives (nothing leaks between
///   messages);
/// - a message deflated by `PerMessageDeflater` inflates back to itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInflate(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let mode = input.byte()
    let limits = [0, 1, 125, 4096, 4097, 65536]
    let raw = Int(input.uint16())
    let limit = mode & 0x80 != 0 ? limits[raw % limits.count] : raw
    let payload = input.rest()

    if mode & 1 == 0 {
        check(payload, limit: limit, expected: nil)
    } else {
        let deflater = PerMessageDeflater(windowBits: 9 + Int(mode >> 1) % 7)
        let compressed: [UInt8]? = payload.withUnsafeBytes { message in deflater.compress(message) { $0.map(Array.init) } }
        guard let compressed else { invariant(false, "the deflater failed"); return 0 }
        check(compressed, limit: limit, expected: payload)
    }
    return 0
}

/// What an inflation gave, copied out of the inflater.
enum Inflated: Equatable {
    case message([UInt8])
    case tooBig
    case corrupt
}

/// The inflater a loop shares between its connections: one for the whole run.
nonisolated(unsafe) let sharedInflater = PerMessageInflater()   // libFuzzer runs inputs on one thread

/// Larger than any message the fuzzer's inputs (at most a few KiB, a ratio of ~1000:1) inflate to.
let unlimited = 16 << 20

func inflate(_ compressed: [UInt8], limit: Int, with inflater: PerMessageInflater) -> Inflated {
    compressed.withUnsafeBytes { bytes in
        inflater.inflate(bytes, limit: limit) { outcome in
            switch outcome {
            case .message(let message):
                invariant(message.count <= max(0, limit), "\(message.count) bytes inflated under a limit of \(limit)")
                return .message(Array(message))
            case .tooBig: return .tooBig
            case .corrupt: return .corrupt
            }
        }
    }
}

func check(_ compressed: [UInt8], limit: Int, expected: [UInt8]?) {
    let limited = inflate(compressed, limit: limit, with: sharedInflater)
    invariant(limited == inflate(compressed, limit: limit, with: PerMessageInflater()), "the shared inflater kept state")
    let whole = inflate(compressed, limit: unlimited, with: PerMessageInflater())
    switch whole {
    case .message(let message):
        if let expected { invariant(message == expected, "a deflated message inflates to other bytes") }
        invariant(limited == (message.count <= limit ? whole : .tooBig), "limited \(limited) vs unlimited \(message.count) bytes")
    case .corrupt:
        invariant(expected == nil, "a deflated message does not inflate")
        invariant(limited == .corrupt || limited == .tooBig, "corrupt data inflated under a limit")
    case .tooBig:
        invariant(false, "\(compressed.count) bytes inflated to more than \(unlimited)")
    }
}
