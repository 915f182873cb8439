import Dispatch
import RxSwift
import Synchronization
import XCTest

/// `flatMap` inner sequences made with `Observable.create` whose handler hands its observer
/// to someone else: a terminal event sent during the subscription, on the subscribing thread,
/// is recorded without an atomic read-modify-write, so these pin what must still hold when
/// the kept observer is used too (on another thread at the same time, or on the subscribing
/// thread during another inner subscription).
final class ObservableFlatMapKeptObserverTests: RxTestCase {
    /// The handler completes while another thread, given its observer, ends it too (an error
    /// or a completion) and then sends an element: downstream gets one terminal event and no
    /// element, and the handler's disposable is disposed exactly once.
    func testInnerEndedOnTwoThreadsAtOnceEndsOnce() {
        for round in 0..<400 {
            let received = Mutex<[String]>([])
            let disposals = Mutex(0)
            let otherThreadDone = DispatchGroup()
            let subscription = Observable.just(round)
                .flatMap { value in
                    Observable<Int>.create { observer in
                        let kept = UncheckedBox(observer)
                        let go = DispatchSemaphore(value: 0)
                        otherThreadDone.enter()
                        DispatchQueue.global().async {
                            go.wait()
                            if value % 2 == 0 {
                                kept.value.onError(testError)
                            } else {
                                kept.value.onCompleted()
                            }
                            kept.value.onNext(-1)
                            otherThreadDone.leave()
                        }
                        go.signal()
                        observer.onCompleted()
                        return Disposables.create { disposals.withLock { $0 += 1 } }
                    }
                }
                .subscribe(
                    onNext: { value in received.withLock { $0.append("next \(value)") } },
                    onError: { _ in received.withLock { $0.append("error") } },
                    onCompleted: { received.withLock { $0.append("completed") } }
                )
            otherThreadDone.wait()
            subscription.dispose()
            let events = received.withLock { $0 }
            XCTAssertTrue(events == ["completed"] || events == ["error"], "round \(round): \(events)")
            if round % 2 == 1 {
                XCTAssertEqual(events, ["completed"], "round \(round)")
            }
            XCTAssertEqual(disposals.withLock { $0 }, 1, "round \(round)")
        }
    }

    /// Another thread, given the observer, ends the inner while its handler waits, or after
    /// the handler ended it: whichever comes second, and what follows it, is dropped, and the
    /// handler's disposable is disposed exactly once.
    func testInnerEndedByAnotherThreadBeforeOrAfterItsHandler() {
        for otherThreadFirst in [true, false] {
            var received: [Int] = []
            var errors = 0
            var completions = 0
            let disposals = Mutex(0)
            let otherThreadDone = DispatchSemaphore(value: 0)
            let handlerDone = DispatchSemaphore(value: 0)
            let subscription = Observable.just(7)
                .flatMap { value in
                    Observable<Int>.create { observer in
                        let kept = UncheckedBox(observer)
                        DispatchQueue.global().async {
                            if !otherThreadFirst {
                                handlerDone.wait()
                            }
                            Self.end(kept.value, first: otherThreadFirst, value: value)
                            otherThreadDone.signal()
                        }
                        if otherThreadFirst {
                            otherThreadDone.wait()
                        }
                        Self.end(observer, first: !otherThreadFirst, value: value)
                        handlerDone.signal()
                        return Disposables.create { disposals.withLock { $0 += 1 } }
                    }
                }
                .subscribe(onNext: { received.append($0) }, onError: { _ in errors += 1 }, onCompleted: { completions += 1 })
            if !otherThreadFirst {
                otherThreadDone.wait()
            }
            subscription.dispose()
            XCTAssertEqual(received, [7], "other thread first: \(otherThreadFirst)")
            XCTAssertEqual(errors, 0, "other thread first: \(otherThreadFirst)")
            XCTAssertEqual(completions, 1, "other thread first: \(otherThreadFirst)")
            XCTAssertEqual(disposals.withLock { $0 }, 1, "other thread first: \(otherThreadFirst)")
        }
    }

    /// What one side sends: the first to end the inner sends `value` and completes; the
    /// second sends an element and an error, both to be dropped.
    private static func end(_ observer: AnyObserver<Int>, first: Bool, value: Int) {
        if first {
            observer.onNext(value)
            observer.onCompleted()
        } else {
            observer.onNext(-1)
            observer.onError(testError)
        }
    }

    /// The first inner keeps its observer and stays open; the second one's handler ends the
    /// first through that observer during its own subscription, on the same thread: the first
    /// one's element and completion count (it leaves the group), and its later element is
    /// dropped.
    func testKeptObserverEndedDuringAnotherInnerSubscription() {
        var first: AnyObserver<Int>?
        var firstDisposals = 0
        var received: [Int] = []
        var completed = 0
        let source = PublishSubject<Int>()
        let subscription = source
            .flatMap { value in
                Observable<Int>.create { observer in
                    if value == 1 {
                        first = observer
                        return Disposables.create { firstDisposals += 1 }
                    }
                    first?.onNext(10)
                    first?.onCompleted()
                    first?.onNext(-1)
                    observer.onNext(20)
                    observer.onCompleted()
                    return Disposables.create()
                }
            }
            .subscribe(onNext: { received.append($0) }, onCompleted: { completed += 1 })
        source.onNext(1)
        source.onNext(2)
        XCTAssertEqual(received, [10, 20])
        XCTAssertEqual(firstDisposals, 1)
        XCTAssertEqual(completed, 0)
        source.onCompleted()
        XCTAssertEqual(completed, 1)
        first = nil
        subscription.dispose()
    }
}
