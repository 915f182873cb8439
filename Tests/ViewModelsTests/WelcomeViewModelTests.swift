import RxSwift
import RxTest
import XCTest
import ViewModels

/// The signed-in user's welcome, on virtual time (resolution 1: one tick is one second).
final class WelcomeViewModelTests: XCTestCase {
    private var scheduler: TestScheduler!
    private var output: WelcomeViewModel.Output!
    private var resourcesAtStart: Int32 = 0

    override func setUp() {
        resourcesAtStart = Resources.total
        scheduler = TestScheduler(initialClock: 0)
        let waves = scheduler.createHotObservable([.next(210, ()), .next(215, ()), .next(240, ()), .completed(300)])
        output = WelcomeViewModel(user: "ada", scheduler: scheduler).transform(input: .init(wave: waves.asObservable()))
    }

    override func tearDown() {
        output = nil
        scheduler = nil
        XCTAssertEqual(Resources.total, resourcesAtStart, "every subscription and timer is released")
    }

    func testGreetsTheUserByName() {
        let observer = scheduler.start(created: 100, subscribed: 200, disposed: 1000) { self.output.greeting }
        XCTAssertEqual(observer.events, [.next(200, "Welcome, ada"), .completed(200)])
    }

    func testCountsTheSecondsSignedInUntilTheSessionEnds() {
        let observer = scheduler.start(created: 100, subscribed: 200, disposed: 204) { self.output.signedInFor }
        XCTAssertEqual(observer.events, [.next(200, 0), .next(201, 1), .next(202, 2), .next(203, 3)],
                       "the disposal at 204 stops the timer before its fourth tick")
    }

    func testCountsWavesFromZero() {
        let observer = scheduler.start(created: 100, subscribed: 200, disposed: 1000) { self.output.waves }
        XCTAssertEqual(observer.events, [.next(200, 0), .next(210, 1), .next(215, 2), .next(240, 3), .completed(300)])
    }
}
