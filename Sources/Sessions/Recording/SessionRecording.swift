import FoundationEssentials
import Glibc
import RxSwift
import Synchronization

/// One session's recording: its file, written from the session's trace (the marbles a
/// dashboard viewer sees, inputs with their values as JSON) and from its service calls
/// (`WireClient.answers`). Lines are buffered and written 16 KiB at a time and at the end.
final class SessionRecording: TapRecorder<Marble>, ServiceAnswering, @unchecked Sendable {  // mutable state is in `state`, a mutex
    private struct State {
        var buffer: [UInt8]
        var written = 0
        var descriptor: Int32
        var truncated = false
        /// Calls made so far, by service.
        var calls: [String: Int] = [:]
    }

    private let path: String
    private let state: Mutex<State>
    /// When the session opened, on the marbles' clock.
    private let start = marbleClock()
    private let maxBytes: Int
    private let recorder: SessionRecorder

    init(path: String, descriptor: Int32, header: String, maxBytes: Int, recorder: SessionRecorder) {
        self.path = path
        var buffer: [UInt8] = []
        buffer.reserveCapacity(20 * 1024)
        buffer.appendText(header)
        state = Mutex(State(buffer: buffer, descriptor: descriptor))
        self.maxBytes = maxBytes
        self.recorder = recorder
        super.init()
    }

    private func time(_ microseconds: UInt64) -> UInt64 { microseconds &- start }

    /// Appends the marble's line, as bytes straight into the buffer under the lock: this runs
    /// for every input and output of a recorded session, where each `String` append cost a few
    /// hundred instructions.
    override func record(_ marble: Marble) {
        // An input's `next` carries its form, its length (a secret) or no label (a tap); an
        // output's always carries its label. Only outputs fail; completions are not replayed.
        let isInput = marble.kind == .next && (marble.recordedAs != nil || marble.length != nil || marble.label == nil)
        guard marble.kind != .completed else { return }
        let t = time(marble.timeMicroseconds)
        write { line in
            line.appendEventStart(t, isInput ? "input" : "output", marble.lane)
            if let length = marble.length {
                line.appendStatic(",\"secret\":")  // a secret: its length only, never the value
                line.appendDecimal(UInt64(length))
            } else if let label = marble.label, marble.kind == .next {
                line.appendStatic(",\"value\":")
                if marble.recordedAs == .string { line.appendJSONString(label) } else { line.appendText(label) }
            } else if marble.kind == .error {
                line.appendStatic(",\"error\":")
                line.appendJSONString(marble.label ?? "")
            }
            line.appendStatic("}\n")
        }
    }

    func answers<Element: Codable>(
        _ service: String, request: @escaping () -> Observable<Element>,
        encodeFailure: @escaping @Sendable (any Error) -> String?, decodeFailure: @escaping @Sendable (String) -> (any Error)?
    ) -> Observable<Element> {
        Observable.deferred { [self] in
            let call = state.withLock { state in
                defer { state.calls[service, default: 0] += 1 }
                return state.calls[service, default: 0]
            }
            append(RecordingLine.event(time(marbleClock()), "call", service, ",\"n\":\(call)"))
            // An answer given while subscribing is replayed the same way, without a tick between.
            let subscribing = SubscribingFlag()
            func answer(_ fields: String) {
                let sync = subscribing.isOn ? ",\"sync\":true" : ""
                append(RecordingLine.event(time(marbleClock()), "answer", service, ",\"n\":\(call)" + sync + fields))
            }
            return request().do(
                onNext: { value in
                    if let json = try? WireJSON.encode(value) { answer(",\"value\":" + json) }
                    else { answer(RecordingLine.string("error", "the answer could not be encoded")) }
                },
                onError: { error in
                    if let json = encodeFailure(error) { answer(",\"failure\":" + json) }
                    else { answer(RecordingLine.string("error", "\(error)")) }
                },
                onCompleted: { answer(",\"completed\":true") },
                onSubscribed: { subscribing.isOn = false })
        }
    }

    private func append(_ line: String) {
        write { $0.appendText(line) }
    }

    /// Adds a line to the buffer with `make`, unless the file is closed or truncated; a line
    /// that would take the file past `maxBytes` (with room for the marker) truncates it instead.
    private func write(_ make: (inout [UInt8]) -> Void) {
        state.withLock { state in
            guard state.descriptor >= 0, !state.truncated else { return }
            let before = state.buffer.count
            make(&state.buffer)
            if state.written + state.buffer.count + Self.truncatedLine.utf8CodeUnitCount > maxBytes {
                state.buffer.removeLast(state.buffer.count - before)
                state.truncated = true
                state.buffer.appendStatic(Self.truncatedLine)
            }
            if state.buffer.count >= 16 * 1024 { flush(&state) }
        }
    }

    private static let truncatedLine: StaticString = "{\"truncated\":true}\n"

    private func flush(_ state: inout State) {
        let count = state.buffer.count
        state.buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let done = Glibc.write(state.descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if done <= 0 { break }
                offset += done
            }
        }
        state.written += count
        state.buffer.removeAll(keepingCapacity: true)
    }

    /// The session closed: the last lines written, the file closed and counted.
    override func finish() {
        let end = RecordingLine.event(time(marbleClock()), "end", "closed")
        let size: Int? = state.withLock { state in
            guard state.descriptor >= 0 else { return nil }
            if !state.truncated, state.written + state.buffer.count + end.utf8.count <= maxBytes { state.buffer.appendText(end) }
            flush(&state)
            close(state.descriptor)
            state.descriptor = -1
            return state.written
        }
        if let size { recorder.finish(path: path, size: size) }
    }
}

/// Whether a service call is still being subscribed to; read and written on the thread that
/// subscribes and on the ones that answer, which the call's own ordering keeps apart.
private final class SubscribingFlag: @unchecked Sendable {  // written once, while subscribing, before any later answer
    var isOn = true
}
