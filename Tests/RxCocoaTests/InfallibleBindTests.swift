import RxSwift
import RxCocoa
import RxTest
import XCTest

/// Infallible's bindings to observers, which RxSwift 6 keeps in RxCocoa.
final class InfallibleBindTests: RxCocoaTestCase {
    func testBindToObserversOptionalObserversAndWithObject() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int.self)
        let optionalObserver = scheduler.createObserver(Int?.self)
        let subject = PublishSubject<Int>()
        let source = subject.asInfallible(onErrorJustReturn: -1)
        final class Sink { var values: [Int] = [] }
        let sink = Sink()
        var viaClosure: [Int] = []
        let bindings = [
            source.bind(to: observer),
            source.bind(to: optionalObserver),
            source.bind(with: sink) { $0.values.append($1) },
            source.bind(onNext: { viaClosure.append($0) }),
        ]
        scheduler.scheduleAt(10) { subject.onNext(1) }
        scheduler.scheduleAt(20) { subject.onNext(2) }
        scheduler.scheduleAt(30) { subject.onCompleted() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(10, 1), .next(20, 2), .completed(30)])
        XCTAssertEqual(optionalObserver.events, [.next(10, 1), .next(20, 2), .completed(30)])
        XCTAssertEqual(sink.values, [1, 2])
        XCTAssertEqual(viaClosure, [1, 2])
        bindings.forEach { $0.dispose() }
    }

    func testBindToCurriedBinder() {
        var received: [String] = []
        let subscription = Infallible.just("a").bind(to: { (source: Infallible<String>) -> Disposable in
            source.subscribe(onNext: { received.append($0) })
        })
        let curried = Infallible.just("b").bind(to: { source in { (suffix: String) -> Disposable in
            source.subscribe(onNext: { received.append($0 + suffix) })
        } }, curriedArgument: "!")
        XCTAssertEqual(received, ["a", "b!"])
        subscription.dispose()
        curried.dispose()
    }
}
