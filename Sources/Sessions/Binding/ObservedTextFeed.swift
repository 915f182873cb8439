import RxSwift

/// The feed of a text input declared with `onValue` (`WireInputs.text(_:secret:onValue:)`):
/// its subject, and the closure each accepted value goes to just before the subject sends it.
final class ObservedTextFeed {
    let subject = InlinePublishSubject<String>()
    private let onValue: (String) -> Void

    init(onValue: @escaping (String) -> Void) {
        self.onValue = onValue
    }

    func send(_ value: String) {
        onValue(value)
        subject.onNext(value)
    }
}

/// The feed of a text input declared with an initial value: like a bound text field, it
/// holds a current value, which each subscriber gets at once (a `BehaviorSubject`). A
/// client's value equal to the current one is not passed on, so a client that re-sends its
/// fields after `ready` changes nothing (PROTOCOL.md, "First values").
final class InitialTextFeed {
    let subject: BehaviorSubject<String>
    private let onValue: ((String) -> Void)?
    /// The value the view model last saw; only the session's thread reads and writes it.
    private var current: String

    init(initial: String, onValue: ((String) -> Void)?) {
        subject = BehaviorSubject(value: initial)
        current = initial
        self.onValue = onValue
        onValue?(initial)
    }

    func send(_ value: String) {
        guard value != current else { return }
        current = value
        onValue?(value)
        subject.onNext(value)
    }
}
