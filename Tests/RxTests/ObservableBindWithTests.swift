import RxSwift
import RxTest
import XCTest

/// `bind(with:onNext:)`: elements delivered with a weakly held object.
final class ObservableBindWithTests: RxTestCase {
    private final class Screen {
        var shown: [String] = []
    }

    func testDeliversElementsWhileTheObjectLives() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        var screen: Screen? = Screen()
        weak let weakScreen = screen
        var log: [String] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.bind(with: screen!) { screen, value in
                screen.shown.append("\(value)")
                log.append("\(scheduler.clock): \(value)")
            }
        }
        scheduler.scheduleAt(225) {
            XCTAssertEqual(screen?.shown, ["1", "2"])
            screen = nil
        }
        scheduler.scheduleAt(400) { subscription?.dispose() }
        scheduler.start()
        XCTAssertNil(weakScreen)
        XCTAssertEqual(log, ["210: 1", "220: 2"])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }
}
