import Dispatch
import Foundation
import RxSwift
import RxTest
import XCTest

/// Operators and subjects send events and dispose sources after releasing their own lock:
/// an observer (or a disposal) that calls back into them, from the same thread or by waiting
/// for another one, never deadlocks. Each cross-thread wait is bounded, so a regression fails
/// after the bound instead of hanging, and a working build never waits for it.
final class LockFreeDeliveryTests: RxTestCase {
    // MARK: delay

    /// An error arriving from another thread while `delay` is delivering an element is neither
    /// blocked by the delivery nor sent during it: it follows the element.
    func testDelayErrorWhileDeliveringAnElementDoesNotWaitForTheObserver() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "delay-error")
        let subject = PublishSubject<Int>()
        let inNext = DispatchSemaphore(value: 0)
        let errorSent = DispatchSemaphore(value: 0)
        let terminated = DispatchSemaphore(value: 0)
        let log = EventLog()
        let subscription = subject.delay(.milliseconds(1), scheduler: scheduler).subscribe(
            onNext: { value in
                log.append("next(\(value)) begins")
                inNext.signal()
                // Returns at once once the error was sent; times out only if sending it
                // waited for this delivery to end.
                let answered = errorSent.wait(timeout: .now() + 10) == .success
                log.append(answered ? "next(\(value)) ends" : "next(\(value)) timed out")
            },
            onError: { error in
                log.append("error \(error)")
                terminated.signal()
            }
        )
        subject.onNext(1)
        XCTAssertEqual(inNext.wait(timeout: .now() + 10), .success)
        subject.onError(testError)
        errorSent.signal()
        XCTAssertEqual(terminated.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(log.entries, ["next(1) begins", "next(1) ends", "error TestError(1)"])
        subscription.dispose()
    }

    /// An observer of `delay` that feeds the source again gets the new element later, in order.
    func testDelayReentrantElementIsDelayedInTurn() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [Recorded<Event<Int>>] = []
        let subscription = subject.delay(.seconds(10), scheduler: scheduler).subscribe { event in
            received.append(Recorded(time: scheduler.clock, value: event))
            if case .next(1) = event {
                subject.onNext(2)
                subject.onCompleted()
            }
        }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.start()
        XCTAssertEqual(received, [.next(220, 1), .next(230, 2), .completed(231)])
        subscription.dispose()
    }

    // MARK: ReplaySubject

    /// The buffer is replayed outside the subject's lock: another thread may send to the
    /// subject while a new observer is still being replayed to, and the observer gets that
    /// event right after the replay.
    func testReplaySubjectReplaysOutsideItsLock() {
        let subject = ReplaySubject<Int>.createUnbounded()
        subject.onNext(1)
        let box = UncheckedBox(subject)
        let sent = DispatchSemaphore(value: 0)
        let received = OrderRecorder()
        var sentInTime = false
        let subscription = subject.subscribe(onNext: { value in
            received.append(value)
            if value == 1 {
                DispatchQueue.global().async {
                    box.value.onNext(2)
                    sent.signal()
                }
                sentInTime = sent.wait(timeout: .now() + 10) == .success
            }
        })
        XCTAssertTrue(sentInTime, "the other thread waited for the replay")
        XCTAssertEqual(received.values, [1, 2])
        subject.onNext(3)
        XCTAssertEqual(received.values, [1, 2, 3])
        subscription.dispose()
    }

    /// An observer that sends to the subject during its replay gets the new element after
    /// the replayed ones; other observers get it at once.
    func testReplaySubjectReentrantSendDuringReplayFollowsTheReplay() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        let other = scheduler.createObserver(Int.self)
        var received: [Int] = []
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(210) {
            subject.onNext(1)
            subject.onNext(2)
            subscriptions.append(subject.subscribe(other))
        }
        scheduler.scheduleAt(220) {
            subscriptions.append(subject.subscribe(onNext: { value in
                received.append(value)
                if value == 1 { subject.onNext(3) }
            }))
        }
        _ = recordingAnomalies { scheduler.start() }
        XCTAssertEqual(received, [1, 2, 3])
        XCTAssertEqual(other.events, [.next(210, 1), .next(210, 2), .next(220, 3)])
        subscriptions.forEach { $0.dispose() }
    }

    // MARK: BehaviorSubject and AsyncSubject

    /// A new observer gets the current value outside the subject's lock: another thread may
    /// send meanwhile, and its element follows the value.
    func testBehaviorSubjectSendsItsValueOutsideItsLock() {
        let subject = BehaviorSubject(value: 1)
        let box = UncheckedBox(subject)
        let sent = DispatchSemaphore(value: 0)
        let received = OrderRecorder()
        var sentInTime = false
        let subscription = subject.subscribe(onNext: { value in
            received.append(value)
            if value == 1 {
                DispatchQueue.global().async {
                    box.value.onNext(2)
                    sent.signal()
                }
                sentInTime = sent.wait(timeout: .now() + 10) == .success
            }
        })
        XCTAssertTrue(sentInTime, "the other thread waited for the subject's lock")
        XCTAssertEqual(received.values, [1, 2])
        XCTAssertEqual(try subject.value(), 2)
        subscription.dispose()
    }

    /// An observer subscribing to a completed `AsyncSubject` may subscribe again from its
    /// handler: the result is sent outside the subject's lock.
    func testAsyncSubjectSendsItsResultOutsideItsLock() {
        let subject = AsyncSubject<Int>()
        subject.onNext(7)
        subject.onCompleted()
        let box = UncheckedBox(subject)
        let answered = DispatchSemaphore(value: 0)
        var events: [Event<Int>] = []
        var answeredInTime = false
        _ = subject.subscribe { event in
            events.append(event)
            if case .next = event {
                DispatchQueue.global().async {
                    _ = box.value.subscribe { _ in }
                    answered.signal()
                }
                answeredInTime = answered.wait(timeout: .now() + 10) == .success
            }
        }
        XCTAssertTrue(answeredInTime, "the other thread waited for the subject's lock")
        XCTAssertEqual(events, [.next(7), .completed])
    }

    // MARK: zip of a collection

    /// `zip` and `combineLatest` (of a collection and of three sources) dispose their
    /// sources after releasing their lock: a source whose disposal waits for another thread
    /// that sends to the operator does not deadlock it.
    func testZipAndCombineLatestDisposeSourcesOutsideTheirLocks() {
        let makers: [(Observable<Int>, Observable<Int>, Observable<Int>) -> Observable<Int>] = [
            { Observable.zip([$0, $1, $2]) { $0.reduce(0, +) } },
            { Observable.zip($0, $1, $2) { $0 + $1 + $2 } },
            { Observable.combineLatest([$0, $1, $2]) { $0.reduce(0, +) } },
            { Observable.combineLatest($0, $1, $2) { $0 + $1 + $2 } },
        ]
        for makeZip in makers {
            let failing = PublishSubject<Int>()
            let feeder = ObserverSlot()
            let sentInTime = FlagBox()
            let waiting = Observable<Int>.create { _ in
                Disposables.create {
                    let sent = DispatchSemaphore(value: 0)
                    DispatchQueue.global().async {
                        feeder.observer?.onNext(7)
                        sent.signal()
                    }
                    sentInTime.set(sent.wait(timeout: .now() + 10) == .success)
                }
            }
            let fed = Observable<Int>.create { observer in
                feeder.observer = observer
                return Disposables.create()
            }
            var events: [Event<Int>] = []
            let subscription = makeZip(failing.asObservable(), waiting, fed).subscribe { events.append($0) }
            failing.onError(testError)
            XCTAssertTrue(sentInTime.value, "the other thread waited for the operator's lock")
            XCTAssertEqual(events, [.error(testError)])
            subscription.dispose()
            feeder.observer = nil
        }
    }

    /// An observer of the collection `zip` that feeds its sources gets the new result after
    /// the current one.
    func testZipCollectionReentrantElementsAreZippedInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = PublishSubject<Int>()
        let ys = PublishSubject<Int>()
        var received: [Recorded<Event<[Int]>>] = []
        let subscription = Observable.zip([xs, ys]).subscribe { event in
            received.append(Recorded(time: scheduler.clock, value: event))
            if case .next([1, 10]) = event {
                xs.onNext(2)
                ys.onNext(20)
                xs.onCompleted()
            }
        }
        scheduler.scheduleAt(210) { xs.onNext(1) }
        scheduler.scheduleAt(220) { ys.onNext(10) }
        _ = recordingAnomalies { scheduler.start() }
        XCTAssertEqual(received, [.next(220, [1, 10]), .next(220, [2, 20])])
        ys.onCompleted()
        XCTAssertEqual(received, [.next(220, [1, 10]), .next(220, [2, 20]), .completed(220)])
        subscription.dispose()
    }
}

/// Lines logged from several threads, in order.
private final class EventLog: @unchecked Sendable { // `lock` guards `stored`
    private let lock = NSLock()
    private var stored: [String] = []

    func append(_ entry: String) {
        lock.lock()
        stored.append(entry)
        lock.unlock()
    }

    var entries: [String] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}

/// An observer handed from a subscription to another thread.
private final class ObserverSlot: @unchecked Sendable { // `lock` guards `stored`
    private let lock = NSLock()
    private var stored: AnyObserver<Int>?

    var observer: AnyObserver<Int>? {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}

/// A flag set on one thread and read on another.
private final class FlagBox: @unchecked Sendable { // `lock` guards `stored`
    private let lock = NSLock()
    private var stored = false

    func set(_ value: Bool) {
        lock.lock()
        stored = value
        lock.unlock()
    }

    var value: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
