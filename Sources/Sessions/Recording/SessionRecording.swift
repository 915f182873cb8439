import FoundationEssentials
import Glibc
import Synchronization

/// One session's recording: its file, written by the session as each input is accepted and
/// each output element is sent (`input(_:)`, `output(message:)`), and from its service calls
/// (`WireClient.answers`). Each line goes straight into the buffer from what the session
/// already holds: an input's decoded value, an output's message as the client gets it; the
/// buffer is written 16 KiB at a time and at the end.
final class SessionRecording: ServiceAnswering, @unchecked Sendable {  // `state` is guarded by `locked`; `inputInHand` is the session thread's own
    private struct State: ~Copyable {
        var buffer: RecordingBuffer
        var written = 0
        var descriptor: Int32
        var truncated = false
        let maxBytes: Int
        /// The buffer's count past which a line's end has work (`endLine`): the file's bound
        /// less the truncation marker, or a full buffer.
        var endLineLimit = 0
        /// The most a line may take the count to with nothing checked but that: within the
        /// buffer's room (less the truncation marker's) and `endLineLimit`; below 0 once the
        /// file is closed or truncated. One comparison per line (`write`).
        var roomyLimit = -1
        /// The time of the last line written with one: an output line at that time is
        /// written without (`output(message:at:)`).
        var lastTime: UInt64 = .max
        /// Calls made so far, by service.
        var calls: [String: Int] = [:]
    }

    /// The file (a dashboard's export reads it).
    let path: String
    /// Whether a thread holds `state`: a lock bit, since each line holds it for a few dozen
    /// instructions (two atomic operations a line less than a `Mutex`'s, which needs its
    /// thread's id) and only service answers and off-thread outputs ever wait. A flush holds it
    /// through a `write` of at most 16 KiB; a waiter yields meanwhile.
    private let locked = Atomic<Bool>(false)
    /// Touched only while `locked` is held (`withLock`), so its accesses go unchecked.
    @exclusivity(unchecked) private var state: State
    /// When the session opened, on `recordingClock()`.
    private let start = recordingClock()
    private let maxBytes: Int
    private let recorder: SessionRecorder
    /// `,"input":"<name>"` of every input, one after the other, and where each ends.
    private let inputHeads: FixedBytes
    private let inputHeadEnds: [Int]
    /// Which inputs are secret: recorded as their length, never their value.
    private let secretInputs: [Bool]
    /// Whether any is: most view models have none, and their inputs skip the lookup.
    private let hasSecrets: Bool
    /// The time of the input the session is handling, `.max` between inputs: set and read on
    /// the session's thread only (`input`, `inputHandled`, `output(message:onSessionThread:)`).
    private var inputInHand: UInt64 = .max
    /// Where `input(asSent:)` reads the clock, on the session's thread only: a reading on the
    /// stack would cost that path a stack guard's check.
    @exclusivity(unchecked) private var inputClockReading = timespec()

    init(path: String, descriptor: Int32, header: String, inputs: [WireInputs.Declaration], maxBytes: Int,
         recorder: SessionRecorder) {
        self.path = path
        var buffer = RecordingBuffer(capacity: 20 * 1024)
        buffer.reserve(header.utf8.count)
        buffer.put(text: header)
        var initial = State(buffer: buffer, descriptor: descriptor, maxBytes: maxBytes)
        Self.setEndLineLimit(&initial)
        state = initial
        self.maxBytes = maxBytes
        self.recorder = recorder
        var heads: [UInt8] = []
        inputHeadEnds = inputs.map { input in
            var head = ",\"input\":"
            head.appendJSONString(input.name)
            heads += head.utf8
            return heads.count
        }
        inputHeads = FixedBytes(heads)
        secretInputs = inputs.map(\.secret)
        hasSecrets = secretInputs.contains(true)
    }

    /// `body` with the state, `locked` held.
    @inline(__always)
    private func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        if locked.exchange(true, ordering: .acquiring) { waitForLock() }
        defer { locked.store(false, ordering: .releasing) }
        return body(&state)
    }

    @inline(never)
    private func waitForLock() {
        repeat { sched_yield() } while locked.load(ordering: .relaxed) || locked.exchange(true, ordering: .acquiring)
    }

    /// Microseconds since the session opened.
    func time() -> UInt64 { recordingClock() &- start }

    /// An input event the session accepted, from `message`, the client's message (UTF-8, valid
    /// during the call). A message in a plain shape (`isPlain`: `{"input":"<name>"}` or
    /// `{"input":"<name>","value":"<text>"}`, no space, no escape) already is the line but for
    /// the time: it is copied. Any other is written from the event: `{"t":…,"input":"<name>"`
    /// and its value as a JSON string or as the JSON given, or nothing for a tap. A secret's
    /// line has its length only, never the value.
    /// Called on the session's thread, which calls `inputHandled()` once the input is fed: the
    /// outputs made meanwhile on that thread share the input's time.
    @inline(__always)  // into the session's message path: the plain line's call takes the message alone
    func input(_ event: InputTable.Event, message: UnsafeRawBufferPointer, isPlain: Bool) {
        if isPlain && !(hasSecrets && secretInputs[event.index]) {
            input(asSent: message)
        } else {
            input(decoded: event)
        }
    }

    /// Any other input's line, from its event.
    @inline(never)  // out of the session's message path, which would otherwise hold a clock reading's frame
    private func input(decoded event: InputTable.Event) {
        let t = time()
        inputInHand = t
        writeInput(event, at: t)
    }

    /// A plain input's line: its message with the time put first.
    @inline(never)  // the message path keeps a call of two arguments: inlined, the whole `input` would stop being inlined there
    private func input(asSent message: UnsafeRawBufferPointer) {
        clock_gettime(CLOCK_MONOTONIC, &inputClockReading)
        let t = Self.microseconds(inputClockReading) &- start
        inputInHand = t
        writeLine(at: t, continuing: message)
    }

    /// The input `input` recorded has been fed to the view model.
    @inline(__always)
    func inputHandled() { inputInHand = .max }

    private func writeInput(_ event: InputTable.Event, at t: UInt64) {
        let index = event.index
        switch event.payload {
        case .tap:
            writeInput(index, at: t, .tap, UnsafeRawBufferPointer(start: nil, count: 0))
        case .text(let text):
            writeInput(index, at: t, text, asString: true)
        case .value(.string(let text)):
            writeInput(index, at: t, text, asString: true)
        case .value(.json(let raw)):
            writeInput(index, at: t, raw, asString: false)
        case .value(.absent):
            writeInput(index, at: t, "", asString: true)  // never accepted: nothing decodes from no value
        }
    }

    /// `,"input":"<name>"` of input `index`.
    private func inputHead(_ index: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: inputHeads.bytes[(index == 0 ? 0 : inputHeadEnds[index - 1])..<inputHeadEnds[index]])
    }

    /// What follows an input line's name.
    private enum InputValue {
        case tap
        /// `,"value":` and the text as a JSON string.
        case string
        /// `,"value":` and the text, which is JSON.
        case json
        /// `,"secret":` and the length: a secret's value is never written.
        case secret(UInt64)
    }

    private func writeInput(_ index: Int, at t: UInt64, _ text: String, asString: Bool) {
        if secretInputs[index] {
            writeInput(index, at: t, .secret(UInt64(text.count)), UnsafeRawBufferPointer(start: nil, count: 0))
            return
        }
        var text = text
        text.withUTF8 { writeInput(index, at: t, asString ? .string : .json, UnsafeRawBufferPointer($0)) }
    }

    private func writeInput(_ index: Int, at t: UInt64, _ form: InputValue, _ value: UnsafeRawBufferPointer) {
        let head = inputHead(index)
        // `{"t":`, the time, the head, `,"secret":` and a length or `,"value":` and the value, `}` and a newline.
        write(room: 5 + RecordingBuffer.roomForDecimal + head.count + 10 + max(RecordingBuffer.roomForDecimal, RecordingBuffer.roomForJSONString(value.count)) + 2, at: t) { line in
            line.put("{\"t\":")
            line.put(decimal: t)
            line.put(head)
            switch form {
            case .tap:
                break
            case .string:
                line.put(",\"value\":")
                line.put(jsonString: value)
            case .json:
                line.put(",\"value\":")
                line.put(value)
            case .secret(let length):
                line.put(",\"secret\":")
                line.put(decimal: length)
            }
            line.put("}\n")
        }
    }

    /// An output element: `message` is `{"output":"<name>","value":<value>}` as the client
    /// gets it, so the line is the message with the time put first. An element made on the
    /// session's thread while it handles an input is at that input's time: its line has no
    /// `t` at all when it follows a line of that time (the input's, or another output's).
    @inline(__always)  // as `input`
    func output(message: UnsafeRawBufferPointer, onSessionThread: Bool) {
        let t = onSessionThread ? inputInHand : .max
        guard t != .max else {
            output(atItsOwnTime: message)
            return
        }
        let rest = Self.afterFirstByte(message)
        write(room: 5 &+ RecordingBuffer.roomForDecimal &+ 1 &+ rest.count &+ 1, at: t, { $0.putTimedLine(t, continuing: rest) },
              orWhenContinuing: true, { $0.putLine(message) })
    }

    /// An output element made off the session's thread or between inputs.
    @inline(never)  // out of the output's path, which would otherwise hold a clock reading's frame
    private func output(atItsOwnTime message: UnsafeRawBufferPointer) {
        writeLine(at: time(), continuing: message)
    }

    /// `{"t":<t>,` and `message` but its first byte (a `{`), and a newline: the line of a message
    /// that is already it but for the time. The most frequent lines, so written with no
    /// closure, all in reserved room.
    @inline(__always)
    private func writeLine(at t: UInt64, continuing message: UnsafeRawBufferPointer) {
        let rest = Self.afterFirstByte(message)
        write(room: 5 &+ RecordingBuffer.roomForDecimal &+ 1 &+ rest.count &+ 1, at: t) { $0.putTimedLine(t, continuing: rest) }
    }

    /// `message` but its first byte, unchecked: a plain input's message and an output's both
    /// begin `{"`, so neither is empty.
    @inline(__always)
    private static func afterFirstByte(_ message: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: message.baseAddress.unsafelyUnwrapped + 1, count: message.count &- 1)
    }

    /// An output failed: `{"t":…,"output":"<name>","error":"<error>"}`.
    func output(_ name: String, failed error: any Error) {
        let t = time()
        append(RecordingLine.event(t, "output", name, RecordingLine.string("error", "\(error)")), at: t)
    }

    /// The number of `service`'s next call, from 0.
    func nextCall(of service: String) -> Int {
        withLock { state in
            defer { state.calls[service, default: 0] += 1 }
            return state.calls[service, default: 0]
        }
    }

    /// Adds `line`, made at `t`.
    func append(_ line: String, at t: UInt64) {
        var line = line
        line.withUTF8 { bytes in write(room: bytes.count, at: t) { $0.put(UnsafeRawBufferPointer(bytes)) } }
    }

    /// Adds a line of at most `room` bytes, with time `t`, to the buffer with `make`, unless
    /// the file is closed or truncated. A line that keeps the count within `roomyLimit` (most)
    /// checks nothing else; any other makes room first and ends by `endLine`.
    @inline(__always)  // the line's closure folds into the caller
    private func write(room: Int, at t: UInt64, _ make: (inout RecordingBuffer) -> Void) {
        write(room: room, at: t, make, orWhenContinuing: false, make)
    }

    /// As `write(room:at:_:)`, but with `untimed` instead of `make` when `whenContinuing` and
    /// the line before has time `t`.
    @inline(__always)
    private func write(room: Int, at t: UInt64, _ make: (inout RecordingBuffer) -> Void,
                       orWhenContinuing whenContinuing: Bool, _ untimed: (inout RecordingBuffer) -> Void) {
        withLock { state in
            let before = state.buffer.count
            let isRoomy = before &+ room <= state.roomyLimit
            if !isRoomy, !Self.makeRoom(&state, room) { return }
            if whenContinuing && state.lastTime == t {
                untimed(&state.buffer)
            } else {
                make(&state.buffer)
            }
            state.lastTime = t
            if !isRoomy { Self.endLine(&state, from: before, maxBytes: maxBytes) }
        }
    }

    /// Room for a line of `room` bytes and the truncation marker; false when the file is
    /// closed or truncated (no line is written).
    @inline(never)
    private static func makeRoom(_ state: inout State, _ room: Int) -> Bool {
        guard !state.truncated, state.descriptor >= 0 else { return false }
        state.buffer.reserve(room &+ truncatedLine.utf8CodeUnitCount)
        setRoomyLimit(&state)
        return true
    }

    private static func setRoomyLimit(_ state: inout State) {
        state.roomyLimit = state.truncated || state.descriptor < 0
            ? -1 : min(state.buffer.capacity - truncatedLine.utf8CodeUnitCount, state.endLineLimit)
    }

    /// After a line from `before`: a line that would take the file past `maxBytes` (with room
    /// for the marker) truncates it instead; a full buffer is written.
    @inline(never)
    private static func endLine(_ state: inout State, from before: Int, maxBytes: Int) {
        if state.buffer.count > state.endLineLimit { endFullLine(&state, from: before, maxBytes: maxBytes) }
    }

    private static func endFullLine(_ state: inout State, from before: Int, maxBytes: Int) {
        if state.written &+ state.buffer.count &+ truncatedLine.utf8CodeUnitCount > maxBytes {
            state.buffer.removeFrom(before)
            state.truncated = true
            state.buffer.put(truncatedLine)
            setRoomyLimit(&state)
        }
        if state.buffer.count >= flushCount { flush(&state) }
    }

    /// A buffer this full is written to the file.
    private static let flushCount = 16 * 1024

    private static func setEndLineLimit(_ state: inout State) {
        state.endLineLimit = min(flushCount - 1, state.maxBytes - state.written - truncatedLine.utf8CodeUnitCount)
        setRoomyLimit(&state)
    }

    private static let truncatedLine: StaticString = "{\"truncated\":true}\n"

    private static func flush(_ state: inout State) {
        let count = state.buffer.count
        let descriptor = state.descriptor
        state.buffer.withBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let done = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if done <= 0 { break }
                offset += done
            }
        }
        state.written += count
        state.buffer.removeFrom(0)
        setEndLineLimit(&state)
    }

    /// Writes the buffered lines now, so a reader of the file sees the session so far.
    func flushBuffered() {
        withLock { state in
            if state.descriptor >= 0 { Self.flush(&state) }
        }
    }

    /// The session closed: the last lines written, the file closed and counted.
    func finish() {
        let end = RecordingLine.event(time(), "end", "closed")
        let size: Int? = withLock { state in
            guard state.descriptor >= 0 else { return nil }
            if !state.truncated, state.written + state.buffer.count + end.utf8.count <= maxBytes {
                state.buffer.reserve(end.utf8.count)
                state.buffer.put(text: end)
            }
            Self.flush(&state)
            close(state.descriptor)
            state.descriptor = -1
            Self.setRoomyLimit(&state)
            return state.written
        }
        if let size { recorder.finish(path: path, size: size) }
    }

    /// The file is closed and removed: the recording could not be attached to its session.
    func discard() {
        withLock { state in
            guard state.descriptor >= 0 else { return }
            close(state.descriptor)
            state.descriptor = -1
            Self.setRoomyLimit(&state)
        }
        unlink(path)
    }
}
