import Foundation
import ObjectSizeTestSupport
@testable import RxSwift
import XCTest

/// `InlinePublishSubject`: a `PublishSubject`'s events with its first observer kept in the
/// subject. `RxTestCase` checks that every test leaves the resource count where it started.
final class InlinePublishSubjectTests: RxTestCase {
    private final class Recorder {
        var events: [String] = []
        func on(_ event: Event<Int>) {
            switch event {
            case .next(let value): events.append("\(value)")
            case .error: events.append("error")
            case .completed: events.append("completed")
            }
        }
    }

    private struct Failure: Error {}

    func testFirstObserversSubscriptionIsTheSubjectAndDisposingItStopsDelivery() throws {
        let subject = InlinePublishSubject<Int>()
        let recorder = Recorder()
        let subscription = try XCTUnwrap(subject.subscribeHandler(recorder.on))
        XCTAssertTrue(subscription === subject, "no subscription object for the first observer")
        subject.onNext(1)
        subscription.dispose()
        subject.onNext(2)
        XCTAssertEqual(recorder.events, ["1"])
    }

    func testDisposingTheFirstSubscriptionReleasesItsObserver() {
        let subject = InlinePublishSubject<Int>()
        weak var released: Recorder?
        let subscription: Disposable = {
            let recorder = Recorder()
            released = recorder
            return subject.subscribe(onNext: { recorder.on(.next($0)) })
        }()
        XCTAssertNotNil(released)
        subscription.dispose()
        XCTAssertNil(released, "a disposed observer is not kept by the subject")
    }

    func testLaterObserversGetEventsInSubscriptionOrder() {
        let subject = InlinePublishSubject<Int>()
        var order: [String] = []
        let first = subject.subscribe(onNext: { order.append("a\($0)") })
        let second = subject.subscribe(onNext: { order.append("b\($0)") })
        let third = subject.subscribe(onNext: { order.append("c\($0)") })
        subject.onNext(1)
        first.dispose()
        subject.onNext(2)
        third.dispose()
        subject.onNext(3)
        second.dispose()
        subject.onNext(4)
        XCTAssertEqual(order, ["a1", "b1", "c1", "b2", "c2", "b3"])
    }

    /// `sendNext` takes its element; the observers get it as from `onNext`, the first and the
    /// later ones in order, none after disposal or the end, and the element is freed once.
    func testSendNextDeliversAsOnNextAndFreesTheElementOnce() {
        final class Element {
            let name: String
            let freed: () -> Void
            init(_ name: String, freed: @escaping () -> Void) { (self.name, self.freed) = (name, freed) }
            deinit { freed() }
        }
        var freed = 0
        let subject = InlinePublishSubject<Element>()
        var order: [String] = []
        let first = subject.subscribe(onNext: { order.append("a" + $0.name) })
        let second = subject.subscribe(onNext: { order.append("b" + $0.name) })
        subject.sendNext(Element("1") { freed += 1 })
        XCTAssertEqual(freed, 1)
        first.dispose()
        subject.sendNext(Element("2") { freed += 1 })
        subject.onCompleted()
        subject.sendNext(Element("3") { freed += 1 })
        second.dispose()
        XCTAssertEqual(order, ["a1", "b1", "b2"])
        XCTAssertEqual(freed, 3)
    }

    /// The second observer's subscription is one object, an `InlinePublishSubject` of its own
    /// (the link); a third goes to a `PublishSubject`, and so do observers that come and go
    /// after them (as `retry` resubscribes), so no link is made for each.
    func testTheSecondObserverIsKeptInALinkAndLaterOnesInAPublishSubject() throws {
        let subject = InlinePublishSubject<Int>()
        let recorders = (0..<4).map { _ in Recorder() }
        let first = try XCTUnwrap(subject.subscribeHandler(recorders[0].on))
        let second = try XCTUnwrap(subject.subscribeHandler(recorders[1].on))
        XCTAssertTrue(second is InlinePublishSubject<Int>, "the second observer's subscription is its link")
        XCTAssertFalse(second === subject)
        let third = try XCTUnwrap(subject.subscribeHandler(recorders[2].on))
        XCTAssertFalse(third is InlinePublishSubject<Int>, "a third observer goes to a PublishSubject")
        for _ in 0..<3 {
            let passing = try XCTUnwrap(subject.subscribeHandler(recorders[3].on))
            XCTAssertFalse(passing is InlinePublishSubject<Int>, "no link for an observer that comes and goes")
            subject.onNext(9)
            passing.dispose()
        }
        subject.onNext(1)
        second.dispose()
        subject.onNext(2)
        subject.onCompleted()
        first.dispose()
        third.dispose()
        XCTAssertEqual(recorders[0].events, ["9", "9", "9", "1", "2", "completed"])
        XCTAssertEqual(recorders[1].events, ["9", "9", "9", "1"])
        XCTAssertEqual(recorders[2].events, ["9", "9", "9", "1", "2", "completed"])
        XCTAssertEqual(recorders[3].events, ["9", "9", "9"])
    }

    func testARepeatedDisposeOfTheFirstSubscriptionLeavesLaterObservers() {
        let subject = InlinePublishSubject<Int>()
        var seen: [Int] = []
        let first = subject.subscribe(onNext: { _ in XCTFail("disposed") })
        first.dispose()
        let later = subject.subscribe(onNext: { seen.append($0) })
        first.dispose()
        subject.onNext(7)
        XCTAssertEqual(seen, [7])
        later.dispose()
    }

    func testCompletionReachesEveryObserverAndLateSubscribers() {
        let subject = InlinePublishSubject<Int>()
        let lone = Recorder(), late = Recorder()
        let subscription = subject.subscribe(lone.on)
        subject.onNext(1)
        subject.onCompleted()
        subject.onNext(2)
        _ = subject.subscribe(late.on)
        XCTAssertEqual(lone.events, ["1", "completed"])
        XCTAssertEqual(late.events, ["completed"])
        subscription.dispose()
    }

    func testAnErrorReachesEveryObserverAndLateSubscribers() {
        let subject = InlinePublishSubject<Int>()
        let first = Recorder(), second = Recorder(), late = Recorder()
        _ = subject.subscribe(first.on)
        _ = subject.subscribe(second.on)
        subject.onError(Failure())
        subject.onNext(1)
        _ = subject.subscribe(late.on)
        XCTAssertEqual(first.events, ["error"])
        XCTAssertEqual(second.events, ["error"])
        XCTAssertEqual(late.events, ["error"])
    }

    func testAnObserverMayFeedTheSubjectFromInsideOnNext() {
        let subject = InlinePublishSubject<Int>()
        var seen: [Int] = []
        let subscription = subject.subscribe(onNext: { value in
            seen.append(value)
            if value < 3 { subject.onNext(value + 1) }
        })
        subject.onNext(1)
        XCTAssertEqual(seen, [1, 2, 3])
        subscription.dispose()
    }

    /// A sum session's graph: combineLatest over three inputs, disposed as a session's close
    /// disposes it; `RxTestCase` checks nothing is left counted.
    func testCombineLatestOverThreeInputsSumsAndTearsDown() {
        let inputs = (InlinePublishSubject<String>(), InlinePublishSubject<String>(), InlinePublishSubject<String>())
        var sums: [Int] = []
        let subscription = Observable.combineLatest(inputs.0, inputs.1, inputs.2) { (Int($0) ?? 0) + (Int($1) ?? 0) + (Int($2) ?? 0) }
            .subscribe(onNext: { sums.append($0) })
        inputs.0.onNext("1")
        inputs.1.onNext("2")
        inputs.2.onNext("3")
        inputs.1.onNext("x")
        XCTAssertEqual(sums, [6, 4])
        subscription.dispose()
        inputs.0.onNext("5")
        XCTAssertEqual(sums, [6, 4])
    }

    /// Disposes racing events, subscriptions and the terminal event on other threads end with
    /// every observer uncounted once (the lock bit is the subject's only lock).
    func testDisposesRacingEventsLeaveNothing() {
        for round in 0..<1_000 {
            let race = Race()
            DispatchQueue.concurrentPerform(iterations: 3) { side in
                switch side {
                case 0:
                    for value in 0..<20 { race.subject.onNext(value) }
                    if round % 2 == 0 { race.subject.onCompleted() }
                case 1: race.subscriptions.forEach { $0.dispose() }
                default: race.subject.subscribe(onNext: { _ in }).dispose()
                }
            }
        }
    }

    /// One round's subject and its first three subscriptions, shared by the racing threads.
    private final class Race: @unchecked Sendable {  // the subject and its subscriptions are thread-safe; the fields are set before the race
        let subject = InlinePublishSubject<Int>()
        let subscriptions: [Disposable]
        init() {
            subscriptions = (0..<3).map { [subject] _ in subject.subscribe(onNext: { _ in }) }
        }
    }

    /// "40 bytes in a 48-byte malloc block against two 48-byte blocks".
    func testIs40BytesInA48ByteBlock() throws {
        XCTAssertEqual(ObjectSize.instance(of: InlinePublishSubject<String>.self), 40)
        XCTAssertEqual(ObjectSize.instance(of: InlinePublishSubject<Void>.self), 40)
        XCTAssertEqual(ObjectSize.mallocBlock(forAllocationOf: 40), 48)
        let subject = PublishSubject<Int>()
        let subscription = try XCTUnwrap(subject.subscribeHandler { _ in })
        defer { subscription.dispose() }
        if ObjectSize.isSystemMalloc {
            XCTAssertEqual(ObjectSize.mallocBlock(of: InlinePublishSubject<Int>()), 48)
            XCTAssertEqual(ObjectSize.mallocBlock(of: subscription), 48, "a PublishSubject's subscription")
        }
    }
}
