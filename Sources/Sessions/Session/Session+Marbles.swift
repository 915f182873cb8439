/// The marbles a watched session records: made only while someone watches, and out of the
/// message's path (a recorded but unwatched session writes its lines without them).
extension Session {
    @inline(never)  // only while someone watches: kept out of the recorded message's path
    func recordInputMarble(_ event: InputTable.Event, in trace: Tap<Marble>) {
        trace.record(inputMarble(event))
    }

    /// The marble of an accepted input event: a secret input shows its length only.
    private func inputMarble(_ event: InputTable.Event) -> Marble {
        let lane = endpoint.wire.inputs.inputs[event.index].name
        let time = marbleClock()
        switch event.payload {
        case .tap:
            return Marble(lane: lane, kind: .next, timeMicroseconds: time)
        case .text(let value) where endpoint.wire.secretInputs[event.index]:
            return Marble(lane: lane, kind: .next, length: value.count, timeMicroseconds: time)
        case .text(let value):
            return Marble(lane: lane, kind: .next, label: value, timeMicroseconds: time)
        case .value(let value):
            let text: String
            switch value {
            case .string(let string): text = string
            case .json(let raw): text = raw
            case .absent: text = ""  // never accepted: nothing decodes from no value
            }
            if endpoint.wire.secretInputs[event.index] {
                return Marble(lane: lane, kind: .next, length: text.count, timeMicroseconds: time)
            }
            return Marble(lane: lane, kind: .next, label: text, timeMicroseconds: time)
        }
    }

    @inline(never)  // only while someone watches: kept out of the recorded message's path
    func recordOutputMarble(message: UnsafeRawBufferPointer, of description: WireOutputDescription, in trace: Tap<Marble>) {
        trace.record(Marble(lane: description.name, kind: .next,
                            label: String(decoding: description.template.value(in: message), as: UTF8.self),
                            timeMicroseconds: marbleClock()))
    }
}
