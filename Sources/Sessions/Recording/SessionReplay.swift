import FoundationEssentials
import Glibc
import RxSwift

/// Replays a recorded session against a declaration of its view model, on virtual time
/// (`ReplayScheduler`: one tick a millisecond), with the recorded service answers, and
/// compares the outputs with the recorded ones.
public enum SessionReplay {
    /// One output event: an element's JSON, or the output's failure.
    public enum Value: Equatable, Sendable, CustomStringConvertible {
        case element(String)
        case failure(String)

        public var description: String {
            switch self {
            case .element(let json): json
            case .failure(let error): "error \(error)"
            }
        }
    }

    /// An output event of the replay, at its tick.
    public struct Output: Equatable, Sendable {
        public let tick: Int
        public let name: String
        public let value: Value
    }

    /// The first output that differs: its name, when (the recorded time, else the replay's),
    /// and what it was and is (nil: no such event).
    public struct Difference: Equatable, Sendable, CustomStringConvertible {
        public let output: String
        public let milliseconds: Int
        public let recorded: Value?
        public let replayed: Value?

        public var description: String {
            let thousandths = String(milliseconds % 1000)
            let seconds = "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - thousandths.count))\(thousandths)"
            return "output \"\(output)\" at \(seconds) s: recorded \(recorded?.description ?? "nothing"), "
                + "now \(replayed?.description ?? "nothing")"
        }
    }

    /// What a replay made.
    public struct Outcome: Sendable {
        /// Every output event of the replay, in order.
        public let outputs: [Output]
        /// The tick the replay stopped at.
        public let stopTick: Int
        /// The first difference from the recording; nil: the same.
        public let difference: Difference?
    }

    /// Ticks the replay runs past the recorded end (or last input), for what the replay's
    /// one-tick hops put a little later than the live session had it.
    public static let ticksAfterEnd = 20

    /// Replays `recording` against `viewModel`.
    public static func replay(_ recording: RecordedSession, with viewModel: WireViewModel) -> Outcome {
        let scheduler = ReplayScheduler()
        MainScheduler.setHost(scheduler)
        defer { MainScheduler.resetHost() }
        let session = OfflineSession(viewModel, answers: RecordedAnswers(recording))
        let outputNames = Set(viewModel.outputNames)
        var outputs: [Output] = []
        let watching = session.events.subscribe(onNext: { marble in
            guard outputNames.contains(marble.lane), marble.kind != .completed else { return }
            let value: Value = marble.kind == .next ? .element(marble.label ?? "null") : .failure(marble.label ?? "")
            outputs.append(Output(tick: scheduler.clock, name: marble.lane, value: value))
        })
        session.open()
        let ticks = ReplayTicks.inputTicks(recording)
        for (tick, message) in zip(ticks, inputMessages(recording)) {
            scheduler.scheduleAt(tick) { session.send(message) }
        }
        let stopTick = stopTick(recording, inputTicks: ticks)
        scheduler.scheduleAt(stopTick) { scheduler.stop() }
        scheduler.start()
        watching.dispose()
        session.close()
        return Outcome(outputs: outputs, stopTick: stopTick, difference: firstDifference(recording, outputs))
    }

    /// Where the replay stops: `ticksAfterEnd` after the recorded end or the last input.
    static func stopTick(_ recording: RecordedSession, inputTicks: [Int]) -> Int {
        let end = ReplayTicks.ticks(recording.duration ?? recording.events.last?.time ?? 0)
        return max(end, inputTicks.last ?? 0) + ticksAfterEnd
    }

    /// The placeholder a secret input's value is replayed as: as many `*` as it had characters.
    public static func placeholder(length: Int) -> String {
        String(repeating: "*", count: length)
    }

    /// Each recorded input as the message a client sent (a secret's value a placeholder).
    static func inputMessages(_ recording: RecordedSession) -> [String] {
        recording.events.compactMap { event in
            guard case .input(_, let name, let json, let secretLength) = event else { return nil }
            var message = "{\"input\":"
            message.appendJSONString(name)
            if let secretLength {
                message += ",\"value\":"
                message.appendJSONString(placeholder(length: secretLength))
            } else if let json {
                message += ",\"value\":" + json
            }
            return message + "}"
        }
    }

    /// The recorded output events, by output, in order.
    static func recordedOutputs(_ recording: RecordedSession) -> [String: [(time: UInt64, value: Value)]] {
        var outputs: [String: [(time: UInt64, value: Value)]] = [:]
        for case .output(let time, let name, let json, let error) in recording.events {
            outputs[name, default: []].append((time, error.map(Value.failure) ?? .element(json ?? "null")))
        }
        return outputs
    }

    /// The earliest output event where the replay and the recording differ, output by output.
    static func firstDifference(_ recording: RecordedSession, _ replayed: [Output]) -> Difference? {
        let recorded = recordedOutputs(recording)
        let now = Dictionary(grouping: replayed, by: \.name)
        var first: Difference?
        for name in Set(recorded.keys).union(now.keys) {
            let before = recorded[name] ?? []
            let after = now[name] ?? []
            for index in 0..<max(before.count, after.count) {
                let old = index < before.count ? before[index] : nil
                let new = index < after.count ? after[index] : nil
                guard old?.value != new?.value else { continue }
                let milliseconds = old.map { ReplayTicks.ticks($0.time) } ?? new?.tick ?? 0
                if first.map({ (milliseconds, name) < ($0.milliseconds, $0.output) }) ?? true {
                    first = Difference(output: name, milliseconds: milliseconds, recorded: old?.value, replayed: new?.value)
                }
                break
            }
        }
        return first
    }
}
