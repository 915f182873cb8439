import Foundation
import RxSwift
import Synchronization

/// One session's recording: its file, written from the session's trace (the marbles a
/// dashboard viewer sees, inputs with their values as JSON) and from its service calls
/// (`WireClient.answers`). Lines are buffered and written 16 KiB at a time and at the end.
final class SessionRecording: TapRecorder<Marble>, ServiceAnswering, @unchecked Sendable {  // mutable state is in `state`, a mutex
    private struct State {
        var buffer = ""
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
        state = Mutex(State(buffer: header, descriptor: descriptor))
        self.maxBytes = maxBytes
        self.recorder = recorder
        super.init()
    }

    private func time(_ microseconds: UInt64) -> UInt64 { microseconds &- start }

    /// Appends the marble's line. Written straight into the buffer under the lock, and without
    /// string interpolation (which costs a dynamic conformance check per value): this runs for
    /// every input and output of a recorded session.
    override func record(_ marble: Marble) {
        // An input's `next` carries its JSON, its length (a secret) or nothing at all (a tap);
        // an output's always carries its label. Only outputs fail; completions are not replayed.
        let isInput = marble.kind == .next && (marble.json != nil || marble.length != nil || marble.label == nil)
        guard marble.kind != .completed else { return }
        let t = time(marble.timeMicroseconds)
        let estimate = marble.lane.utf8.count + ((marble.json ?? marble.label)?.utf8.count ?? 0)
        write(estimate: estimate) { line in
            RecordingLine.begin(&line, t, isInput ? "input" : "output", marble.lane)
            if let length = marble.length {
                line += ",\"secret\":"
                line += length.description  // a secret: its length only, never the value
            } else if isInput, let json = marble.json {
                line += ",\"value\":"
                line += json
            } else if !isInput, marble.kind == .next {
                line += ",\"value\":"
                line += marble.label ?? "null"
            } else if marble.kind == .error {
                line += ",\"error\":"
                line.appendJSONString(marble.label ?? "")
            }
            line += "}\n"
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
        write(estimate: line.utf8.count) { $0 += line }
    }

    /// Adds a line to the buffer with `make`, unless the file is closed or truncated; a line
    /// that would take the file past `maxBytes` (by `estimate`, plus room for the line's
    /// frame) truncates it instead.
    private func write(estimate: Int, _ make: (inout String) -> Void) {
        state.withLock { state in
            guard state.descriptor >= 0, !state.truncated else { return }
            if state.written + state.buffer.utf8.count + estimate + 64 > maxBytes {
                state.truncated = true
                state.buffer += "{\"truncated\":true}\n"
            } else {
                make(&state.buffer)
            }
            if state.buffer.utf8.count >= 16 * 1024 { flush(&state) }
        }
    }

    private func flush(_ state: inout State) {
        let count = state.buffer.utf8.count
        state.buffer.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let done = Foundation.write(state.descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if done <= 0 { break }
                offset += done
            }
        }
        state.written += count
        state.buffer = ""
    }

    /// The session closed: the last lines written, the file closed and counted.
    override func finish() {
        let end = RecordingLine.event(time(marbleClock()), "end", "closed")
        let size: Int? = state.withLock { state in
            guard state.descriptor >= 0 else { return nil }
            if !state.truncated { state.buffer += end }
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
