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

    /// The subject of input `index`, if there is one.
    subscript(index: Int) -> WireInputs.Feed? {
        switch self {
        case .few(let first, let second, let third):
            switch index {
            case 0: return first
            case 1: return second
            case 2: return third
            default: return nil
            }
        case .many(let feeds):
            return feeds.indices.contains(index) ? feeds[index] : nil
        }
    }
}
