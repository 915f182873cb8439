import Synchronization

/// RxSwift 4's wrapper of a `BehaviorSubject` that cannot fail: `value` reads and sets the
/// current value, `asObservable()` replays it and then sends each new one, and the
/// sequence completes when the `Variable` is deallocated. Use `BehaviorRelay` instead.
@available(*, deprecated, message: "Variable is deprecated. Please use `BehaviorRelay` as a replacement.")
public final class Variable<Element> {
    private let subject: BehaviorSubject<Element>
    private let lock = RxLock(())
    /// Guarded by `lock`.
    private var current: Element

    /// The current value; setting it sends it to every observer, even if it is unchanged.
    public var value: Element {
        get { lock.performLocked { current } }
        set {
            lock.performLocked { current = newValue }
            subject.on(.next(newValue))
        }
    }

    /// A `Variable` holding `value`.
    public init(_ value: Element) {
        current = value
        subject = BehaviorSubject(value: value)
    }

    /// The current value, then each new one; completes when the `Variable` is deallocated.
    public func asObservable() -> Observable<Element> {
        subject
    }

    deinit {
        subject.on(.completed)
    }
}
