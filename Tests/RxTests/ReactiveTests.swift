import Foundation
import RxSwift
import RxTest
import XCTest

/// A value type with reactive extensions of its own.
private struct Thermometer: ReactiveCompatible {
    var celsius: Double
}

extension Reactive where Base == Thermometer {
    fileprivate var fahrenheit: Observable<Double> {
        .just(base.celsius * 9 / 5 + 32)
    }

    fileprivate static var scale: String { "°F" }
}

private final class Lamp: NSObject {
    var isOn = false
}

final class ReactiveTests: RxTestCase {
    func testReactiveCompatibleValueAndTypeExtensions() throws {
        let thermometer = Thermometer(celsius: 100)
        XCTAssertEqual(try thermometer.rx.fahrenheit.toArrayValue(), [212])
        XCTAssertEqual(Thermometer.rx.scale, "°F")
        var mutable = Thermometer(celsius: 0)
        mutable.rx = Reactive(Thermometer(celsius: 50))
        XCTAssertEqual(mutable.celsius, 0, "rx has nothing to store: setting it changes nothing")
    }

    func testNSObjectPropertiesAreBindersOnTheMainScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        MainScheduler.setHost(scheduler)
        defer { MainScheduler.resetHost() }
        let lamp = Lamp()
        let switches = scheduler.createHotObservable([.next(10, true), .next(20, false), .next(30, true)])
        let subscription = switches.bind(to: lamp.rx.isOn)
        var states: [Bool] = []
        scheduler.scheduleAt(15) { states.append(lamp.isOn) }
        scheduler.scheduleAt(25) { states.append(lamp.isOn) }
        scheduler.scheduleAt(35) { states.append(lamp.isOn) }
        scheduler.start()
        XCTAssertEqual(states, [true, false, true])
        subscription.dispose()
    }
}

private extension Observable {
    /// The elements of a sequence that ends synchronously.
    func toArrayValue() throws -> [Element] {
        var elements: [Element] = []
        var failure: Error?
        _ = subscribe(onNext: { elements.append($0) }, onError: { failure = $0 })
        if let failure { throw failure }
        return elements
    }
}
