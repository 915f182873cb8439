/// One session's input subjects by input index. Up to three (every view model served today)
/// are kept inline in the session rather than in an array of their own: a 64-byte malloc
/// block less per session (`SessionsLayoutTests`).
enum SessionFeeds {
    case few(WireInputs.Feed?, WireInputs.Feed?, WireInputs.Feed?)
    case many([WireInputs.Feed])

    static var none: SessionFeeds { .few(nil, nil, nil) }

    init(_ feeds: [WireInputs.Feed]) {
        if feeds.count > 3 {
            self = .many(feeds)
        } else {
            func at(_ index: Int) -> WireInputs.Feed? { index < feeds.count ? feeds[index] : nil }
            self = .few(at(0), at(1), at(2))
        }
    }

    /// Sends `payload` to input `index`'s subject, calling `accepted` just before; returns
    /// the refusal of a value that does not decode. The feed is borrowed where it is kept, not
    /// copied out: a copy of the enum costs an outlined switch, a retain and a release per message.
    @inline(__always)
    func send(_ payload: InputTable.Event.Payload, to index: Int, input name: @autoclosure () -> String,
              accepted: () -> Void) -> ProtocolError? {
        if case .many(let feeds) = self {
            return Self.send(payload, to: feeds.indices.contains(index) ? feeds[index] : nil, input: name(), accepted: accepted)
        }
        // One payload bound at a time, the others left unbound: a bound payload is a copy.
        switch index {
        case 0: if case .few(let first, _, _) = self { return Self.send(payload, to: first, input: name(), accepted: accepted) }
        case 1: if case .few(_, let second, _) = self { return Self.send(payload, to: second, input: name(), accepted: accepted) }
        case 2: if case .few(_, _, let third) = self { return Self.send(payload, to: third, input: name(), accepted: accepted) }
        default: break
        }
        return Self.send(payload, to: nil, input: name(), accepted: accepted)
    }

    @inline(__always)
    private static func send(_ payload: InputTable.Event.Payload, to feed: WireInputs.Feed?,
                             input name: @autoclosure () -> String, accepted: () -> Void) -> ProtocolError? {
        switch payload {
        case .text(let value):
            if case .text(let subject)? = feed {
                accepted()
                subject.onNext(value)
                return nil
            }
        case .tap:
            if case .tap(let subject)? = feed {
                accepted()
                subject.onNext(())
                return nil
            }
        case .value(let value):
            if case .value(let valueFeed)? = feed {
                return valueFeed.feed(value, input: name(), accepted: accepted)
            }
        }
        assertionFailure("the input table and the feeds disagree")
        return nil
    }
}
