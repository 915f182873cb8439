import Foundation
import RxSwift
import RxBlocking
import RxTest
import XCTest

private enum NetworkError: Error, Equatable {
    case offline
}

final class ObservableRetryWhenTests: RxTestCase {
    func testRetryWhenResubscribesWhenTriggerFires() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let res = scheduler.start(disposed: 290) {
            xs.retry(when: { (errors: Observable<Error>) in errors.delay(.seconds(5), scheduler: scheduler) })
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(235, 1), .next(260, 1), .next(285, 1)])
        XCTAssertEqual(xs.subscriptions, [
            Subscription(200, 220), Subscription(225, 245), Subscription(250, 270), Subscription(275, 290),
        ])
    }

    func testRetryWhenTriggerCompletingCompletesAndTriggerErrorFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let limited = scheduler.start {
            xs.retry(when: { (errors: Observable<Error>) in errors.take(2) })
        }
        // RxSwift's rule: the second error's answer (`next`, then take's completion) resubscribes
        // at 240; the completion is seen only when the third subscription fails.
        XCTAssertEqual(limited.events, [.next(210, 1), .next(230, 1), .next(250, 1), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])

        let failing = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            xs.retry(when: { (errors: Observable<Error>) in
                errors.enumerated().map { pair -> Int in
                    if pair.index == 1 { throw testError2 }
                    return pair.index
                }
            })
        }
        XCTAssertEqual(failing.events, [.next(1210, 1), .next(1230, 1), .error(1240, testError2)])
    }

    func testRetryWhenSourceCompletionCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { xs.retry(when: { (errors: Observable<Error>) in errors }) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testRetryWhenTypedErrorsPassAndOtherErrorsFail() {
        let scheduler = TestScheduler(initialClock: 0)
        let offline = scheduler.createColdObservable([.next(10, 1), .error(20, NetworkError.offline)])
        let typed = scheduler.start(disposed: 245) {
            offline.retry(when: { (errors: Observable<NetworkError>) in errors.map { _ in () } })
        }
        XCTAssertEqual(typed.events, [.next(210, 1), .next(230, 1)])

        let other = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let untyped = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            other.retry(when: { (errors: Observable<NetworkError>) in errors.map { _ in () } })
        }
        XCTAssertEqual(untyped.events, [.next(1210, 1), .error(1220, testError)])
    }

    func testRetryWhenSynchronousFailuresAndTriggerDoNotRecurse() {
        var attempts = 0
        let failing = Observable<Int>.create { observer in
            attempts += 1
            observer.onError(testError)
            return Disposables.create()
        }
        var completed = false
        let subscription = failing.retry(when: { (errors: Observable<Error>) in errors.take(50_000) })
            .subscribe(onCompleted: { completed = true })
        // The 50,000th error resubscribes; the 50,001st failure finds the trigger completed.
        XCTAssertEqual(attempts, 50_001)
        XCTAssertTrue(completed)
        subscription.dispose()
    }

    func testRetryWhenReentrantObserverAndTriggerCompletingAtOnce() {
        var subjects: [PublishSubject<Int>] = []
        let source = Observable<Int>.deferred {
            let subject = PublishSubject<Int>()
            subjects.append(subject)
            return subject.asObservable()
        }
        var values: [Int] = []
        let subscription = source.retry(when: { (errors: Observable<Error>) in errors }).subscribe(onNext: { value in
            values.append(value)
            if value == 1 { subjects.last?.onError(testError) }
        })
        _ = recordingAnomalies { subjects[0].onNext(1) }
        subjects[1].onNext(2)
        XCTAssertEqual(values, [1, 2])
        XCTAssertEqual(subjects.count, 2)
        subscription.dispose()

        // A trigger that completes at once is only seen by the first error (RxSwift's rule).
        var subscribed = 0
        var events: [Event<Int>] = []
        let immediate = Observable<Int>.deferred {
            subscribed += 1
            return .never()
        }.retry(when: { (_: Observable<Error>) in Observable<Int>.empty() }).subscribe { events.append($0) }
        XCTAssertEqual(events, [])
        XCTAssertEqual(subscribed, 1)
        immediate.dispose()
    }

    func testRetryWhenTriggerOnAnotherQueue() throws {
        let queue = SerialDispatchQueueScheduler(internalSerialQueueName: "retry-trigger")
        let attempts = AttemptCounter()
        let source = Observable<Int>.deferred {
            let attempt = attempts.next()
            return attempt < 3 ? .error(testError) : .just(attempt)
        }
        let values = try source
            .retry(when: { (errors: Observable<Error>) in errors.delay(.milliseconds(2), scheduler: queue) })
            .toBlocking(timeout: 5)
            .toArray()
        XCTAssertEqual(values, [3])
        XCTAssertEqual(attempts.count, 3)
    }
}

extension ObservableRetryWhenTests {
    /// A trigger that completes before any error ends the result at the next error, not at
    /// its own completion (RxSwift completes at 250 here, not at 210).
    func testRetryWhenTriggerCompletedEarlierEndsAtTheNextError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(20, 1), .error(50, testError)])
        let trigger = scheduler.createHotObservable([.completed(210, Int.self)])
        let res = scheduler.start { xs.retry(when: { (_: Observable<Error>) in trigger }) }
        XCTAssertEqual(res.events, [.next(220, 1), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(trigger.subscriptions, [Subscription(200, 210)])
    }

    /// A trigger that failed before any error fails the result at the next error.
    func testRetryWhenTriggerFailedEarlierFailsAtTheNextError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(20, 1), .error(50, testError)])
        let trigger = scheduler.createHotObservable([.error(230, testError2, Int.self)])
        let res = scheduler.start { xs.retry(when: { (_: Observable<Error>) in trigger }) }
        XCTAssertEqual(res.events, [.next(220, 1), .error(250, testError2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    /// Elements the trigger sends while no error waits for an answer are ignored; one sent
    /// after an error resubscribes.
    func testRetryWhenTriggerElementsWithoutAnErrorAreIgnored() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(20, 1), .error(50, testError)])
        let trigger = scheduler.createHotObservable([.next(210, 0), .next(240, 0), .next(270, 0), .completed(400)])
        let res = scheduler.start { xs.retry(when: { (_: Observable<Error>) in trigger }) }
        XCTAssertEqual(res.events, [.next(220, 1), .next(290, 1), .completed(400)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250), Subscription(270, 320)])
    }

    /// A trigger that never answers leaves the result waiting after the error, with the
    /// failed subscription disposed at once.
    func testRetryWhenTriggerThatNeverAnswersWaits() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(20, 1), .error(50, testError)])
        let res = scheduler.start(disposed: 500) { xs.retry(when: { (_: Observable<Error>) in Observable<Int>.never() }) }
        XCTAssertEqual(res.events, [.next(220, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }
}

/// Counts attempts made from any thread.
private final class AttemptCounter: @unchecked Sendable { // `lock` guards `value`
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
