/// The root class of sinks: `SinkDisposer` keeps a sink as one reference to this class (its
/// address sharing a word with the disposer's flags) and disposes it through the class's
/// table, where a class existential took two words.
@usableFromInline
class SinkBase: Disposable {
    @inlinable
    init() {}

    /// Disposes the sink; each subclass says how.
    @inlinable
    func dispose() {}

    /// `sink` as a `SinkBase`: itself when it is one (every `Sink`), else in a box.
    @inlinable @inline(__always)
    static func of(_ sink: AnyObject & Disposable) -> SinkBase {
        let object: AnyObject = sink
        if let base = object as? SinkBase {
            return base
        }
        return DisposableSinkBox(sink)
    }
}

/// A sink made by an operator that is not a `SinkBase`, kept for `SinkDisposer` (one more
/// block, for operators whose sink is some other object).
@usableFromInline
final class DisposableSinkBox: SinkBase {
    @usableFromInline
    let sink: AnyObject & Disposable

    @inlinable
    init(_ sink: AnyObject & Disposable) {
        self.sink = sink
        super.init()
    }

    @inlinable
    override func dispose() {
        sink.dispose()
    }
}
