import WebSocket

/// `codec`: no network. Decodes masked client frames with the server's state
/// machine from memory, to show the codec's own cost: frames/s and MB/s for
/// small (32-byte) and large (16 KiB, ASCII and mixed UTF-8) text messages.
enum CodecMode {
    static func run(seconds: Double, loop: BenchLoop) -> String {
        var lines: [String] = []
        for (size, sample) in [(32, "{\"input\":\"number1\",\"value\":\"1\"} "), (16 * 1024, "plain ascii "), (16 * 1024, "κόσμε abc ")] {
            var random = FastRandom(seed: 1)
            let text = String(repeating: sample, count: size / sample.utf8.count + 1).utf8.prefix(size)
            let payload = Array(String(decoding: Array(text), as: UTF8.self).utf8)   // whole characters only
            var batch: [UInt8] = []
            let framesPerBatch = max(1, (256 * 1024) / (payload.count + 14))
            for _ in 0 ..< framesPerBatch {
                payload.withUnsafeBytes {
                    WebSocketFrameEncoder.appendFrame(opcode: .text, payload: $0, maskingKey: random.maskingKey(), to: &batch)
                }
            }
            var machine = WebSocketProtocolMachine()
            var frames = 0
            var bytes = 0
            var failed = false
            let start = loop.now
            let deadline = start + UInt64(seconds * 1e9 / 2)
            while loop.now < deadline && !failed {
                batch.withUnsafeBytes { all in
                    // Feed in 64 KiB reads, as a socket would deliver them.
                    var offset = 0
                    while offset < all.count {
                        let end = min(all.count, offset + 65536)
                        machine.receive(UnsafeRawBufferPointer(rebasing: all[offset ..< end])) { event in
                            if case .text = event { frames += 1 } else { failed = true }
                        }
                        offset = end
                    }
                }
                bytes += batch.count
            }
            let elapsed = Double(loop.now - start) / 1e9
            let kind = payload.allSatisfy { $0 < 0x80 } ? "ASCII" : "mixed UTF-8"
            lines.append("codec: \(payload.count)-byte \(kind) text frames: \(Int(Double(frames) / elapsed)) frames/s, "
                         + "\(format(Double(bytes) / elapsed / 1e6)) MB/s" + (failed ? " (FAILED: unexpected event)" : ""))
        }
        return lines.joined(separator: "\n")
    }
}
