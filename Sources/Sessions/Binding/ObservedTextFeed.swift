import RxSwift

/// The feed of a text input declared with `onValue` (`WireInputs.text(_:secret:onValue:)`):
/// its subject, and the closure each accepted value goes to just before the subject sends it.
final class ObservedTextFeed {
    let subject = PublishSubject<String>()
    private let onValue: (String) -> Void

    init(onValue: @escaping (String) -> Void) {
        self.onValue = onValue
    }

    func send(_ value: String) {
        onValue(value)
        subject.onNext(value)
    }
}
