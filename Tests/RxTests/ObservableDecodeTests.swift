import Foundation
import RxSwift
import RxTest
import XCTest

/// `decode(type:decoder:)`: each `Data` element decoded with any `DataDecoder`.
final class ObservableDecodeTests: RxTestCase {
    private struct Point: Codable, Equatable {
        let x: Int
        let y: Int
    }

    func testDecodesJSONAndFailsOnBadData() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Data(#"{"x":1,"y":2}"#.utf8)),
            .next(220, Data(#"{"x":3,"y":4}"#.utf8)),
            .next(230, Data("not json".utf8)),
            .next(240, Data(#"{"x":5,"y":6}"#.utf8)),
        ])
        let res = scheduler.start { xs.decode(type: Point.self, decoder: JSONDecoder()) }
        XCTAssertEqual(res.events.count, 3)
        XCTAssertEqual(Array(res.events.prefix(2)), [.next(210, Point(x: 1, y: 2)), .next(220, Point(x: 3, y: 4))])
        XCTAssertEqual(res.events.last?.time, 230)
        XCTAssertTrue(res.events.last?.value.error is DecodingError, "\(String(describing: res.events.last))")
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testDecodesPropertyLists() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        let data = try encoder.encode(Point(x: 7, y: 8))
        let xs = scheduler.createHotObservable([.next(210, data), .completed(220)])
        let res = scheduler.start { xs.decode(type: Point.self, decoder: PropertyListDecoder()) }
        XCTAssertEqual(res.events, [.next(210, Point(x: 7, y: 8)), .completed(220)])
    }
}
