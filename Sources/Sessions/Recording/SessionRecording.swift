import Foundation
import RxSwift
import Synchronization

/// One session's recording: its file, written from the session's trace (the marbles a
/// dashboard viewer sees, inputs with their values as JSON) and from its service calls
/// (`WireClient.answers`). Lines are buffered and written 16 KiB at a time and at the end.
final class SessionRecording: ServiceAnswering, @unchecked Sendable {  // mutable state is in `state`, a mutex
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
    private let inputLanes: Set<String>
    private let maxBytes: Int
    private let recorder: SessionRecorder

    init(path: String, descriptor: Int32, header: String, lanes: [MarbleLane], maxBytes: Int, recorder: SessionRecorder) {
        self.path = path
        state = Mutex(State(buffer: header, descriptor: descriptor))
        inputLanes = Set(lanes.filter { $0.role == .input }.map(\.name))
        self.maxBytes = maxBytes
        self.recorder = recorder
    }

    /// Records what `trace` shows until it finishes (the session closed).
    func observe(_ trace: Tap<Marble>) {
        _ = trace.subscribe(onNext: { [self] marble in record(marble) }, onCompleted: { [self] in finish() })
    }

    private func time(_ microseconds: UInt64) -> UInt64 { microseconds &- start }

    private func record(_ marble: Marble) {
        let t = time(marble.timeMicroseconds)
        if inputLanes.contains(marble.lane) {
            guard marble.kind == .next else { return }  // inputs end only with the session
            if let length = marble.length {
                // A secret: its length only, never the value.
                append(RecordingLine.event(t, "input", marble.lane, ",\"secret\":\(length)"))
            } else if let json = marble.json {
                append(RecordingLine.event(t, "input", marble.lane, ",\"value\":" + json))
            } else {
                append(RecordingLine.event(t, "input", marble.lane))
            }
            return
        }
        switch marble.kind {
        case .next: append(RecordingLine.event(t, "output", marble.lane, ",\"value\":" + (marble.label ?? "null")))
        case .error: append(RecordingLine.event(t, "output", marble.lane, RecordingLine.string("error", marble.label ?? "")))
        case .completed: break  // at the close, every output completes: nothing to replay
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
        state.withLock { state in
            guard state.descriptor >= 0, !state.truncated else { return }
            if state.written + state.buffer.utf8.count + line.utf8.count > maxBytes {
                state.truncated = true
                state.buffer += "{\"truncated\":true}\n"
            } else {
                state.buffer += line
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
    private func finish() {
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
