import RxSwift

/// One session's input subjects by input index. Up to three (every view model served today)
/// are kept inline in the session rather than in an array of their own: a 64-byte malloc
/// block less per session (`SessionsLayoutTests`).
///
/// Each is kept as a plain object reference, its type known from the input's kind: a message
/// then reads it with one retain, where an enum of the three kinds was copied through an
/// outlined switch, a retain and a release. A struct rather than an enum of the two layouts:
/// reading one slot out of the session copies that reference alone, where switching over an
/// enum copied all three (three retains and releases more per message). With more than
/// three, the third slot holds a `FeedList` of the third and later ones, told apart by its
/// class: no flag takes a byte of the session.
struct SessionFeeds {
    private(set) var first: AnyObject?
    private(set) var second: AnyObject?
    /// The third feed, or with more than three, a `FeedList` of the third and later ones.
    private(set) var third: AnyObject?

    /// The feeds from the third on, when there are more than three.
    private final class FeedList {
        let objects: [AnyObject]
        init(_ objects: [AnyObject]) { self.objects = objects }
    }

    static var none: SessionFeeds { SessionFeeds(CollectedFeeds()) }

    init(_ feeds: consuming CollectedFeeds) {
        // Straight from the feeds' objects: an array of them first cost each open an
        // allocation and its retains and releases.
        (first, second) = (feeds.first, feeds.second)
        // More than three: the third slot holds a list of the third and later ones.
        third = feeds.rest.isEmpty ? feeds.third : FeedList([feeds.third].compactMap { $0 } + feeds.rest)
    }

    /// Input `index`'s object, where `index` is 2 or more: the third slot's, or one of its list's.
    func later(_ index: Int) -> AnyObject? {
        guard let third else { return nil }
        guard type(of: third) == FeedList.self else { return index == 2 ? third : nil }
        let objects = unsafeDowncast(third, to: FeedList.self).objects
        return objects.indices.contains(index - 2) ? objects[index - 2] : nil
    }

    /// Sends `payload` to input `index`'s subject `object`, calling `accepted` just before; returns
    /// the refusal of a value that does not decode. The payload's kind is the input's kind
    /// (`InputTable` checked it), which is the kind of the object kept at `index`.
    /// The object is taken owned (the caller's read of it is the one retain) and a subject is
    /// called through it unretained: borrowed, it was retained once more around the call.
    @inline(__always)
    static func send(_ payload: consuming InputTable.Event.Payload, to object: consuming AnyObject?, index: Int,
                     input name: @autoclosure () -> String,
                     accepted: () -> Void) -> ProtocolError? {
        guard let object = consume object else {
            assertionFailure("no feed for input \(index)")
            return nil
        }
        // Kept to the end of the call: the subjects below are called through it unretained.
        defer { _fixLifetime(object) }
        switch consume payload {
        case .text(let value):
            accepted()
            // A text input's object is its subject, its `ObservedTextFeed` when declared with
            // `onValue`, or its `InitialTextFeed` with an initial value: told apart by the class
            // (one comparison of the object's type for the first two).
            if type(of: object) == ObservedTextFeed.self {
                unsafeDowncast(object, to: ObservedTextFeed.self).send(value)
            } else if type(of: object) == InitialTextFeed.self {
                unsafeDowncast(object, to: InitialTextFeed.self).send(value)
            } else {
                assert(object is InlinePublishSubject<String>, "input \(index) is not a text input")
                Unmanaged.passUnretained(unsafeDowncast(object, to: InlinePublishSubject<String>.self))
                    ._withUnsafeGuaranteedRef { $0.sendNext(value) }
            }
        case .tap:
            accepted()
            if type(of: object) == LimitedTapFeed.self {
                unsafeDowncast(object, to: LimitedTapFeed.self).subject.onNext(())
            } else {
                assert(object is InlinePublishSubject<Void>, "input \(index) is not a tap")
                Unmanaged.passUnretained(unsafeDowncast(object, to: InlinePublishSubject<Void>.self))
                    ._withUnsafeGuaranteedRef { $0.onNext(()) }
            }
        case .value(let value):
            assert(object is WireValueFeed, "input \(index) is not a value input")
            return unsafeDowncast(object, to: WireValueFeed.self).feed(value, input: name(), accepted: accepted)
        }
        return nil
    }
}
