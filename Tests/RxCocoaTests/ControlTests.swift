import Foundation
import RxSwift
import RxCocoa
import RxRelay
import RxTest
import XCTest

/// A text field's text as a control property: a relay holds what is shown.
private final class TextField {
    let text = BehaviorRelay<String?>(value: nil)
    var textProperty: ControlProperty<String?> {
        ControlProperty(values: text.asObservable(), valueSink: AnyObserver { [text] event in
            if case .next(let value) = event { text.accept(value) }
        })
    }
}

final class ControlTests: RxCocoaTestCase {
    func testControlPropertyReadsWritesAndOrEmpty() {
        let field = TextField()
        var seen: [String] = []
        let reading = field.textProperty.orEmpty.subscribe(onNext: { seen.append($0) })
        let writing = Observable.of("a", "ab").bind(to: field.textProperty.orEmpty)
        XCTAssertEqual(seen, ["", "a", "ab"])
        XCTAssertEqual(field.text.value, "ab")
        var changes: [String?] = []
        let changed = field.textProperty.changed.subscribe(onNext: { changes.append($0) })
        field.text.accept("abc")
        XCTAssertEqual(changes, ["abc"], "changed skips the current value")
        [reading, writing, changed].forEach { $0.dispose() }
    }

    func testControlEventAndPropertyAsDriverAndSignal() {
        let scheduler = TestScheduler(initialClock: 0)
        let taps = scheduler.createHotObservable([.next(210, ()), .next(230, ())])
        SharingScheduler.mock(scheduler: scheduler) {
            let tapEvent = ControlEvent(events: taps.asObservable())
            let res = scheduler.start { tapEvent.asSignal().map { "tap" }.asObservable() }
            XCTAssertEqual(res.events, [.next(211, "tap"), .next(231, "tap")])
        }
        XCTAssertEqual(taps.subscriptions, [Subscription(200, 1000)])

        let field = TextField()
        let other = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: other) {
            let observer = other.createObserver(String?.self)
            let subscription = field.textProperty.asDriver().drive(observer)
            other.scheduleAt(10) { field.text.accept("x") }
            other.start()
            XCTAssertEqual(observer.events, [.next(1, nil), .next(11, "x")])
            subscription.dispose()
        }
    }

    func testNotificationCenterRxSendsPostsUntilDisposed() {
        let center = NotificationCenter()
        let name = Notification.Name("rx-cocoa-test")
        final class Poster {}
        let poster = Poster()
        var received: [String] = []
        let notifications: Observable<Notification> = center.rx.notification(name, object: poster)
        let subscription = notifications.subscribe(onNext: { notification in
            received.append(notification.userInfo?["value"] as? String ?? "")
        })
        center.post(name: name, object: poster, userInfo: ["value": "one"])
        center.post(name: name, object: Poster(), userInfo: ["value": "other object"])
        center.post(name: Notification.Name("other"), object: poster, userInfo: ["value": "other name"])
        subscription.dispose()
        center.post(name: name, object: poster, userInfo: ["value": "after dispose"])
        XCTAssertEqual(received, ["one"])
    }

    func testReactiveBinderForWritableProperties() {
        final class Label: NSObject {
            var text = ""
        }
        let label = Label()
        let scheduler = TestScheduler(initialClock: 0)
        MainScheduler.setHost(scheduler)
        defer { MainScheduler.resetHost() }
        let subscription = Observable.just("hello").bind(to: label.rx.text)
        XCTAssertEqual(label.text, "", "the binder applies the value on MainScheduler")
        scheduler.start()
        XCTAssertEqual(label.text, "hello")
        subscription.dispose()
    }
}
