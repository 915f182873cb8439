import Dispatch
import FoundationEssentials
import Glibc
import RxSwift
import Synchronization

/// A recording's service answers played back in a replay: call `n` of a service gets the
/// answers call `n` got, each after the delay it had from the call (on `MainScheduler`, the
/// replay's virtual time), one given while subscribing at once. The service is never asked.
public final class RecordedAnswers: ServiceAnswering, @unchecked Sendable {  // `made` is a mutex; the rest is immutable
    private struct Call {
        var start: UInt64
        var answers: [(time: UInt64, answer: RecordedAnswer, synchronous: Bool)] = []
    }

    private let calls: [String: [Int: Call]]
    private let made = Mutex<[String: Int]>([:])

    /// The answers in `recording`.
    public init(_ recording: RecordedSession) {
        var calls: [String: [Int: Call]] = [:]
        for event in recording.events {
            switch event {
            case .call(let time, let service, let number):
                calls[service, default: [:]][number] = Call(start: time)
            case .answer(let time, let service, let number, let answer, let synchronous):
                calls[service, default: [:]][number, default: Call(start: time)].answers.append((time, answer, synchronous))
            default:
                break
            }
        }
        self.calls = calls
    }

    /// The answers in the JSON lines of a recording (what an exported test embeds).
    public convenience init(jsonLines: String) throws {
        self.init(try RecordedSession(jsonLines: jsonLines))
    }

    public func answers<Element: Codable>(
        _ service: String, request: @escaping () -> Observable<Element>,
        encodeFailure: @escaping @Sendable (any Error) -> String?, decodeFailure: @escaping @Sendable (String) -> (any Error)?
    ) -> Observable<Element> {
        Observable.deferred { [self] in
            let number = made.withLock { made in
                defer { made[service, default: 0] += 1 }
                return made[service, default: 0]
            }
            guard let call = calls[service]?[number] else {
                return .error(ReplayedServiceError(description: "the recording has no answer to call \(number) of \(service)"))
            }
            return Observable<Element>.create { observer in
                func deliver(_ answer: RecordedAnswer) {
                    switch answer {
                    case .element(let json):
                        do { observer.onNext(try WireJSON.decode(Element.self, from: .json(json))) }
                        catch { observer.onError(ReplayedServiceError(description: "the recorded answer \(json) no longer decodes")) }
                    case .failure(let json):
                        observer.onError(decodeFailure(json) ?? ReplayedServiceError(description: json))
                    case .error(let description):
                        observer.onError(ReplayedServiceError(description: description))
                    case .completed:
                        observer.onCompleted()
                    }
                }
                let later = CompositeDisposable()
                for (time, answer, synchronous) in call.answers {
                    if synchronous {
                        deliver(answer)
                        continue
                    }
                    let delay = RxTimeInterval.microseconds(Int(time &- call.start))
                    _ = later.insert(MainScheduler.instance.scheduleRelative((), dueTime: delay) { _ in
                        deliver(answer)
                        return Disposables.create()
                    })
                }
                return later
            }
        }
    }
}
