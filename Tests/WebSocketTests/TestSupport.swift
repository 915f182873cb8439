import XCTest
@testable import WebSocket

/// An event copied out of the machine's callback so tests can compare it.
enum RecordedEvent: Equatable, CustomStringConvertible {
    case text(String)
    case binary([UInt8])
    case sendPong([UInt8])
    case pongReceived([UInt8])
    case peerClosed(code: UInt16?, reason: String)
    case fail(UInt16)

    init(_ event: WebSocketProtocolMachine.Event) {
        switch event {
        case .text(let bytes): self = .text(String(decoding: bytes, as: UTF8.self))
        case .binary(let bytes): self = .binary(Array(bytes))
        case .sendPong(let payload): self = .sendPong(Array(payload))
        case .pongReceived(let payload): self = .pongReceived(Array(payload))
        case .peerClosed(let code, let reason):
            self = .peerClosed(code: code?.rawValue, reason: String(decoding: reason, as: UTF8.self))
        case .fail(let code): self = .fail(code.rawValue)
        }
    }

    var description: String {
        switch self {
        case .text(let text): return "text(\(text.prefix(40).debugDescription), \(text.utf8.count) bytes)"
        case .binary(let bytes): return "binary(\(bytes.count) bytes)"
        case .sendPong(let bytes): return "sendPong(\(bytes))"
        case .pongReceived(let bytes): return "pongReceived(\(bytes))"
        case .peerClosed(let code, let reason): return "peerClosed(\(code.map(String.init) ?? "nil"), \(reason.debugDescription))"
        case .fail(let code): return "fail(\(code))"
        }
    }
}

/// A frame as a client sends it: masked with a fixed odd-looking key unless told otherwise.
func clientFrame(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true,
                 masked: Bool = true, key: WebSocketMaskingKey = WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D)) -> [UInt8] {
    var out: [UInt8] = []
    payload.withUnsafeBytes { bytes in
        WebSocketFrameEncoder.appendFrame(opcode: opcode, fin: fin, payload: bytes,
                                          maskingKey: masked ? key : nil, to: &out)
    }
    return out
}

func clientFrame(_ opcode: WebSocketOpcode, _ text: String, fin: Bool = true) -> [UInt8] {
    clientFrame(opcode, Array(text.utf8), fin: fin)
}

/// A masked frame with a raw first byte (to set reserved bits or opcodes).
func rawClientFrame(firstByte: UInt8, payload: [UInt8]) -> [UInt8] {
    var frame = clientFrame(.text, payload)
    frame[0] = firstByte
    return frame
}

/// A masked close frame with an arbitrary code and reason bytes.
func closeFrame(code: UInt16, reason: [UInt8] = []) -> [UInt8] {
    clientFrame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)] + reason)
}

/// Feeds `bytes` in pieces of `chunkSize` (all at once when nil) to `machine`.
func feed(_ machine: inout WebSocketProtocolMachine, _ bytes: [UInt8], chunkSize: Int? = nil) -> [RecordedEvent] {
    var events: [RecordedEvent] = []
    let size = max(1, chunkSize ?? bytes.count)
    var start = 0
    bytes.withUnsafeBytes { all in
        while start < all.count {
            let end = min(all.count, start + size)
            machine.receive(UnsafeRawBufferPointer(rebasing: all[start ..< end])) { events.append(RecordedEvent($0)) }
            start = end
        }
    }
    return events
}

/// Asserts that `bytes` give `expected` whether fed whole, one byte at a time,
/// in pieces of 3 and 7, and split in two at every position (short inputs).
func assertEvents(_ bytes: [UInt8], _ expected: [RecordedEvent],
                  configuration: WebSocketProtocolMachine.Configuration = .init(),
                  file: StaticString = #filePath, line: UInt = #line) {
    for chunk in [nil, 1, 3, 7] as [Int?] {
        var machine = WebSocketProtocolMachine(configuration: configuration)
        let events = feed(&machine, bytes, chunkSize: chunk)
        XCTAssertEqual(events, expected, "chunk size \(chunk.map(String.init) ?? "whole")", file: file, line: line)
    }
    if bytes.count <= 600 {
        for split in 1 ..< max(1, bytes.count) {
            var machine = WebSocketProtocolMachine(configuration: configuration)
            var events = feed(&machine, Array(bytes[..<split]))
            events += feed(&machine, Array(bytes[split...]))
            XCTAssertEqual(events, expected, "split at \(split)", file: file, line: line)
            if events != expected { return }
        }
    }
}
