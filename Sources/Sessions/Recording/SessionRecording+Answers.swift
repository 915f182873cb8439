import Glibc
import RxSwift

/// A recording's service calls and answers (`WireClient.answers`), and its clock.
extension SessionRecording {
    func answers<Element: Codable>(
        _ service: String, request: @escaping () -> Observable<Element>,
        encodeFailure: @escaping @Sendable (any Error) -> String?, decodeFailure: @escaping @Sendable (String) -> (any Error)?
    ) -> Observable<Element> {
        Observable.deferred { [self] in
            let call = nextCall(of: service)
            let t = time()
            append(RecordingLine.event(t, "call", service, ",\"n\":\(call)"), at: t)
            // An answer given while subscribing is replayed the same way, without a tick between.
            let subscribing = SubscribingFlag()
            func answer(_ fields: String) {
                let sync = subscribing.isOn ? ",\"sync\":true" : ""
                let t = time()
                append(RecordingLine.event(t, "answer", service, ",\"n\":\(call)" + sync + fields), at: t)
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
}

/// The monotonic clock of recordings, in microseconds: read once per recorded event.
func recordingClock() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return SessionRecording.microseconds(now)
}

extension SessionRecording {
    /// A monotonic reading in microseconds. Neither of its fields is negative: no check.
    @inline(__always)
    static func microseconds(_ reading: timespec) -> UInt64 {
        UInt64(truncatingIfNeeded: reading.tv_sec) &* 1_000_000 &+ UInt64(truncatingIfNeeded: reading.tv_nsec) / 1000
    }
}

/// Whether a service call is still being subscribed to; read and written on the thread that
/// subscribes and on the ones that answer, which the call's own ordering keeps apart.
private final class SubscribingFlag: @unchecked Sendable {  // written once, while subscribing, before any later answer
    var isOn = true
}
