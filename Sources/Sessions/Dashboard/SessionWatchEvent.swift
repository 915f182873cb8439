/// What a viewer of one live session sees: which lanes it has, then one marble per
/// event on a lane, in the order they happened, until the session ends.
enum SessionWatchEvent: Sendable, Equatable {
    /// Watching `session` of `viewModel`, whose lanes (inputs, then outputs) are `lanes`.
    case watching(session: String, viewModel: String, lanes: [MarbleLane])
    /// No live session has that id.
    case notFound(session: String)
    /// One event on one lane.
    case marble(Marble)
    /// The watched session closed.
    case ended(session: String)
    /// Nothing is watched (the viewer cleared the session id).
    case stopped
}

/// One lane of a marble diagram: an input or an output of the watched session.
struct MarbleLane: Sendable, Equatable {
    /// Which side of the view model the lane is.
    enum Role: String, Sendable {
        case input, output
    }

    /// How the lane's values are shown.
    enum Shape: String, Sendable {
        /// Values are shown.
        case value
        /// Events carry no value (button taps).
        case tap
        /// Only the length of each value is shown (passwords).
        case secret
    }

    var name: String
    var role: Role
    var shape: Shape

    /// A lane.
    init(name: String, role: Role, shape: Shape) {
        self.name = name
        self.role = role
        self.shape = shape
    }
}

/// One event on one lane, as RxSwift's marble diagrams draw it: an element (a marble with
/// its value), an error (a cross) or completion (a bar). Usable from inline: an output's
/// inlinable observer records them.
@usableFromInline
struct Marble: Sendable, Equatable {
    /// The kind of event.
    enum Kind: String, Sendable {
        case next, error, completed
    }

    /// The lane's name.
    var lane: String
    var kind: Kind
    /// What the marble shows: the value for `next` (nil on tap and secret lanes), the error for `error`.
    var label: String?
    /// For a secret lane's `next`: the value's length in characters, instead of the value.
    var length: Int?
    /// When it happened, in microseconds of the server's monotonic clock.
    var timeMicroseconds: UInt64
    /// Events of the session left out just before this one (a viewer gets a bounded rate of marbles).
    var skippedBefore: Int
    /// A marble.
    init(lane: String, kind: Kind, label: String? = nil, length: Int? = nil, timeMicroseconds: UInt64, skippedBefore: Int = 0) {
        self.lane = lane
        self.kind = kind
        self.label = label
        self.length = length
        self.timeMicroseconds = timeMicroseconds
        self.skippedBefore = skippedBefore
    }
}
