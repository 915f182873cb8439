import Foundation
import RxSwift
import RxBlocking
import Synchronization
import XCTest

/// The multi-source operators serialise events coming from several threads: the observer
/// never runs twice at once, nothing is lost, and the sequence terminates once.
final class OperatorConcurrencyTests: RxTestCase {
    /// Checks that no two `onNext` calls overlap and counts them.
    final class SerialChecker: @unchecked Sendable { // `inside` and `count` are atomics; `overlaps` too
        let inside = Atomic<Int>(0)
        let count = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)

        func enter() {
            if inside.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue != 1 {
                overlaps.wrappingAdd(1, ordering: .relaxed)
            }
            count.wrappingAdd(1, ordering: .relaxed)
            // Widen the window in which an overlap would be seen.
            for _ in 0..<50 { _ = inside.load(ordering: .relaxed) }
            inside.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        }
    }

    /// A sequence of `count` elements sent from a concurrent dispatch queue.
    private func background(_ count: Int, value: Int) -> Observable<Int> {
        Observable.create { observer in
            let box = UncheckedBox(observer)
            DispatchQueue.global().async {
                for _ in 0..<count { box.value.onNext(value) }
                box.value.onCompleted()
            }
            return Disposables.create()
        }
    }

    func testFlatMapSerialisesInnerSequencesOnManyThreads() throws {
        let checker = SerialChecker()
        let result = Observable.from(Array(0..<8))
            .flatMap { index in self.background(5000, value: index) }
            .observeEach { _ in checker.enter() }
            .toBlocking(timeout: 20)
            .materialize()
        guard case .completed(let elements) = result else { return XCTFail("expected completion, got \(result)") }
        XCTAssertEqual(elements.count, 40000)
        XCTAssertEqual(checker.overlaps.load(ordering: .relaxed), 0)
    }

    func testFlatMapInnersEndingOnOtherThreadsWhileSubscribing() throws {
        // Every other inner ends on a pool thread right after its subscription started
        // (racing flatMap's bookkeeping after `subscribe` returns), the rest during it.
        let checker = SerialChecker()
        let result = Observable.from(Array(0..<4000))
            .flatMap { index -> Observable<Int> in
                if index % 2 == 0 { return self.background(1, value: index) }
                return Observable.create { observer in
                    observer.onNext(index)
                    observer.onCompleted()
                    return Disposables.create()
                }
            }
            .observeEach { _ in checker.enter() }
            .toBlocking(timeout: 20)
            .materialize()
        guard case .completed(let elements) = result else { return XCTFail("expected completion, got \(result)") }
        XCTAssertEqual(elements.sorted(), Array(0..<4000))
        XCTAssertEqual(checker.overlaps.load(ordering: .relaxed), 0)
    }

    func testFlatMapInnerFailingOnAnotherThreadAsTheSubscriptionIsDropped() {
        // The pool thread's error reaches flatMap's sink while the subscribing thread returns
        // and drops every reference to the subscription: the inner keeps its sink alive for as
        // long as it can still reach it (a kept inner slot holds its sink unretained).
        for _ in 0..<500 {
            let ended = DispatchSemaphore(value: 0)
            let errors = Atomic<Int>(0)
            _ = Observable.just(1)
                .flatMap { _ in
                    Observable<Int>.create { observer in
                        let box = UncheckedBox(observer)
                        DispatchQueue.global().async {
                            box.value.onNext(1)
                            box.value.onError(testError)
                            ended.signal()
                        }
                        return Disposables.create()
                    }
                }
                .subscribe(onError: { _ in errors.add(1, ordering: .relaxed) })
            ended.wait()
            XCTAssertEqual(errors.load(ordering: .relaxed), 1)
        }
    }

    func testCombineLatestSerialisesSourcesOnManyThreads() throws {
        let checker = SerialChecker()
        let elements = try Observable.combineLatest(background(5000, value: 1), background(5000, value: 2), background(5000, value: 3)) { $0 + $1 + $2 }
            .observeEach { _ in checker.enter() }
            .toBlocking(timeout: 20)
            .toArray()
        XCTAssertEqual(checker.overlaps.load(ordering: .relaxed), 0)
        XCTAssertEqual(elements.last, 6)
        XCTAssertFalse(elements.isEmpty)
    }

    func testFlatMapLatestSerialisesSwitchingInnersOnManyThreads() throws {
        let checker = SerialChecker()
        let result = Observable.from(Array(0..<20))
            .flatMapLatest { index in self.background(2000, value: index) }
            .observeEach { _ in checker.enter() }
            .toBlocking(timeout: 20)
            .materialize()
        guard case .completed = result else { return XCTFail("expected completion, got \(result)") }
        XCTAssertEqual(checker.overlaps.load(ordering: .relaxed), 0)
    }
}

extension ObservableType {
    /// Calls `body` with each element (a local stand-in, so these tests need no other operator file).
    fileprivate func observeEach(_ body: @escaping (Element) -> Void) -> Observable<Element> {
        map { element in
            body(element)
            return element
        }
    }
}
