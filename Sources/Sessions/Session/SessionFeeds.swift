import RxSwift

/// One session's input subjects by input index. Up to three (every view model served today)
/// are kept inline in the session rather than in an array of their own: a 64-byte malloc
/// block less per session (`SessionsLayoutTests`).
///
/// Each is kept as a plain object reference, its type known from the input's kind: a message
/// then reads it with one retain, where an enum of the three kinds was copied through an
/// outlined switch, a retain and a release.
enum SessionFeeds {
    case few(AnyObject?, AnyObject?, AnyObject?)
    case many([AnyObject])

    static var none: SessionFeeds { .few(nil, nil, nil) }

    init(_ feeds: [WireInputs.Feed]) {
        let objects = feeds.map(Self.object)
        if objects.count > 3 {
            self = .many(objects)
        } else {
            func at(_ index: Int) -> AnyObject? { index < objects.count ? objects[index] : nil }
            self = .few(at(0), at(1), at(2))
        }
    }

    /// The subject of a text or tap input, or the value feed of a value input.
    private static func object(_ feed: WireInputs.Feed) -> AnyObject {
        switch feed {
        case .text(let subject): return subject
        case .tap(let subject): return subject
        case .value(let feed): return feed
        }
    }

    private subscript(index: Int) -> AnyObject? {
        switch self {
        case .few(let first, let second, let third):
            switch index {
            case 0: return first
            case 1: return second
            case 2: return third
            default: return nil
            }
        case .many(let objects):
            return objects.indices.contains(index) ? objects[index] : nil
        }
    }

    /// Sends `payload` to input `index`'s subject, calling `accepted` just before; returns
    /// the refusal of a value that does not decode. The payload's kind is the input's kind
    /// (`InputTable` checked it), which is the kind of the object kept at `index`.
    @inline(__always)
    func send(_ payload: InputTable.Event.Payload, to index: Int, input name: @autoclosure () -> String,
              accepted: () -> Void) -> ProtocolError? {
        guard let object = self[index] else {
            assertionFailure("no feed for input \(index)")
            return nil
        }
        switch payload {
        case .text(let value):
            assert(object is PublishSubject<String>, "input \(index) is not a text input")
            accepted()
            unsafeDowncast(object, to: PublishSubject<String>.self).onNext(value)
        case .tap:
            assert(object is PublishSubject<Void>, "input \(index) is not a tap")
            accepted()
            unsafeDowncast(object, to: PublishSubject<Void>.self).onNext(())
        case .value(let value):
            assert(object is WireValueFeed, "input \(index) is not a value input")
            return unsafeDowncast(object, to: WireValueFeed.self).feed(value, input: name(), accepted: accepted)
        }
        return nil
    }
}
