import FoundationEssentials
import Glibc
import RxSwift

/// Where a session's service calls go through `WireClient.answers`: a recording writes each
/// call and its answers down (`SessionRecording`), a replay plays them back (`RecordedAnswers`).
public protocol ServiceAnswering: AnyObject, Sendable {
    /// The answers of one call of `service`: `request`'s, or the recorded ones (then `request`
    /// is never made). `decodeFailure` turns a recorded error's JSON back into the error.
    func answers<Element: Codable>(
        _ service: String, request: @escaping () -> Observable<Element>,
        encodeFailure: @escaping @Sendable (any Error) -> String?, decodeFailure: @escaping @Sendable (String) -> (any Error)?
    ) -> Observable<Element>
}

extension WireViewModel {
    /// This view model with its sessions left out of `--record` (a form whose every input is
    /// private, the dashboard).
    public func notRecorded() -> WireViewModel {
        var copy = self
        copy.isRecorded = false
        return copy
    }
}

extension WireClient {
    /// A service call whose answers a recording keeps (`--record`) and a replay plays back,
    /// so that replaying a session needs neither the service nor the secrets it was asked
    /// with. Without either, `request` itself, untouched.
    ///
    ///     service.login(username: u, password: p)  // becomes
    ///     client.answers("login", service.login(username: u, password: p))
    ///
    /// - Parameters:
    ///   - service: the call's name in the recording.
    ///   - request: the call; not made in a replay.
    public func answers<Element: Codable>(_ service: String, _ request: @escaping @autoclosure () -> Observable<Element>) -> Observable<Element> {
        guard let answers else { return request() }
        return answers.answers(service, request: request, encodeFailure: { _ in nil }, decodeFailure: { _ in nil })
    }

    /// As `answers(_:_:)`, for a service whose errors of type `Failure` the view model tells
    /// apart: they are recorded as JSON and replayed as themselves (any other error comes back
    /// as a `ReplayedServiceError` with its description).
    public func answers<Element: Codable, Failure: Error & Codable>(
        _ service: String, failing: Failure.Type, _ request: @escaping @autoclosure () -> Observable<Element>
    ) -> Observable<Element> {
        guard let answers else { return request() }
        return answers.answers(
            service, request: request,
            encodeFailure: { error in (error as? Failure).flatMap { try? WireJSON.encode($0) } },
            decodeFailure: { json in try? JSONDecoder().decode(Failure.self, from: Data(json.utf8)) })
    }
}

/// A recorded service error that was not of the service's declared failure type.
public struct ReplayedServiceError: Error, Equatable, CustomStringConvertible {
    /// The error as it was described when it was recorded.
    public let description: String
}
