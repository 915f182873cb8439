import Foundation
import RxSwift
import RxTest
import XCTest

final class DisposableTests: RxTestCase {
    func testAnonymousDisposableRunsActionOnce() {
        var count = 0
        let disposable = Disposables.create(with: { count += 1 })
        XCTAssertFalse(disposable.isDisposed)
        disposable.dispose()
        disposable.dispose()
        XCTAssertEqual(count, 1)
        XCTAssertTrue(disposable.isDisposed)
    }

    func testCreateOfTwoThreeFourAndCollectionDisposeAll() {
        var disposed: [Int] = []
        let make = { (index: Int) in Disposables.create { disposed.append(index) } }
        Disposables.create(make(1), make(2)).dispose()
        Disposables.create(make(3), make(4), make(5)).dispose()
        Disposables.create(make(6), make(7), make(8), make(9)).dispose()
        let collection = Disposables.create([make(10), make(11), make(12)])
        collection.dispose()
        collection.dispose()
        XCTAssertEqual(disposed, Array(1...12))
        Disposables.create().dispose()
    }

    func testDisposeBagDisposesOnDeinit() {
        var disposed = 0
        var bag: DisposeBag? = DisposeBag()
        Disposables.create { disposed += 1 }.disposed(by: bag!)
        bag!.insert(Disposables.create { disposed += 1 }, Disposables.create { disposed += 1 })
        XCTAssertEqual(disposed, 0)
        bag = nil
        XCTAssertEqual(disposed, 3)
    }

    func testDisposeBagEndsSubscriptions() {
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        var bag = DisposeBag()
        subject.subscribe(onNext: { values.append($0) }).disposed(by: bag)
        subject.onNext(1)
        bag = DisposeBag()
        subject.onNext(2)
        XCTAssertEqual(values, [1])
        XCTAssertFalse(subject.hasObservers)
        _ = bag
    }

    func testDisposeBagBuilderAndArrayInsertion() {
        var disposed: [Int] = []
        let make = { (index: Int) in Disposables.create { disposed.append(index) } }
        var bag: DisposeBag? = DisposeBag {
            make(1)
            make(2)
        }
        bag!.insert {
            make(3)
            make(4)
        }
        bag!.insert([make(5), make(6)])
        bag!.insert(make(7), make(8))
        XCTAssertEqual(disposed, [])
        bag = nil
        XCTAssertEqual(disposed, Array(1...8))

        var arrayBag: DisposeBag? = DisposeBag(disposing: [make(9)])
        var variadicBag: DisposeBag? = DisposeBag(disposing: make(10), make(11))
        arrayBag = nil
        variadicBag = nil
        XCTAssertEqual(disposed, Array(1...11))
        _ = (arrayBag, variadicBag)
    }

    @available(*, deprecated, message: "exercises the deprecated addDisposableTo")
    func testAddDisposableToIsDisposedBy() {
        var disposed = 0
        var bag: DisposeBag? = DisposeBag()
        Disposables.create { disposed += 1 }.addDisposableTo(bag!)
        bag = nil
        XCTAssertEqual(disposed, 1)
    }

    func testCompositeDisposableOfFourOrMore() {
        var disposed: [Int] = []
        let make = { (index: Int) in Disposables.create { disposed.append(index) } }
        let four = CompositeDisposable(make(1), make(2), make(3), make(4))
        let six = CompositeDisposable(make(5), make(6), make(7), make(8), make(9), make(10))
        XCTAssertEqual(four.count, 4)
        XCTAssertEqual(six.count, 6)
        four.dispose()
        six.dispose()
        XCTAssertEqual(disposed, Array(1...10))
        XCTAssertTrue(six.isDisposed)
        XCTAssertEqual(CompositeDisposable(make(11), make(12), make(13)).count, 3)
    }

    func testCompositeDisposableInsertRemoveDispose() {
        var disposed: [Int] = []
        let composite = CompositeDisposable()
        let key1 = composite.insert(Disposables.create { disposed.append(1) })
        _ = composite.insert(Disposables.create { disposed.append(2) })
        XCTAssertEqual(composite.count, 2)
        composite.remove(for: key1!)
        XCTAssertEqual(disposed, [1])
        XCTAssertEqual(composite.count, 1)
        composite.dispose()
        XCTAssertEqual(disposed, [1, 2])
        XCTAssertTrue(composite.isDisposed)
        let late = composite.insert(Disposables.create { disposed.append(3) })
        XCTAssertNil(late)
        XCTAssertEqual(disposed, [1, 2, 3])
    }

    /// Past 16 members the group keeps them in a dictionary: removing any one disposes that
    /// one alone, a key removed twice does nothing, and the rest are disposed in the order
    /// they joined, whichever storage held them.
    func testCompositeDisposableManyMembersRemoveInAnyOrderAndDisposeInJoiningOrder() {
        for memberCount in [5, 16, 17, 40] {
            var disposed: [Int] = []
            let composite = CompositeDisposable()
            let keys = (0..<memberCount).map { index in composite.insert(Disposables.create { disposed.append(index) })! }
            XCTAssertEqual(composite.count, memberCount)
            let removed = Set(stride(from: memberCount - 1, through: 0, by: -3))
            for index in removed.sorted(by: >) {
                composite.remove(for: keys[index])
            }
            XCTAssertEqual(disposed, removed.sorted(by: >), "\(memberCount) members")
            composite.remove(for: keys[memberCount - 1])
            XCTAssertEqual(disposed.count, removed.count, "a key removed twice disposes nothing")
            XCTAssertEqual(composite.count, memberCount - removed.count)
            disposed = []
            composite.dispose()
            XCTAssertEqual(disposed, (0..<memberCount).filter { !removed.contains($0) }, "\(memberCount) members")
            XCTAssertEqual(composite.count, 0)
        }
    }

    /// A group made from an array of more than 16 holds and disposes them all, in order.
    func testCompositeDisposableFromLargeArray() {
        var disposed: [Int] = []
        let composite = CompositeDisposable(disposables: (0..<20).map { index in Disposables.create { disposed.append(index) } })
        XCTAssertEqual(composite.count, 20)
        let key = composite.insert(Disposables.create { disposed.append(20) })!
        composite.remove(for: key)
        XCTAssertEqual(disposed, [20])
        disposed = []
        composite.dispose()
        XCTAssertEqual(disposed, Array(0..<20))
    }

    func testSerialDisposableReplacingDisposesPrevious() {
        var disposed: [Int] = []
        let serial = SerialDisposable()
        serial.disposable = Disposables.create { disposed.append(1) }
        serial.disposable = Disposables.create { disposed.append(2) }
        XCTAssertEqual(disposed, [1])
        serial.dispose()
        XCTAssertEqual(disposed, [1, 2])
        serial.disposable = Disposables.create { disposed.append(3) }
        XCTAssertEqual(disposed, [1, 2, 3])
        XCTAssertTrue(serial.isDisposed)
    }

    func testSingleAssignmentDisposableBeforeAndAfterAssignment() {
        var disposed: [Int] = []
        let first = SingleAssignmentDisposable()
        first.setDisposable(Disposables.create { disposed.append(1) })
        XCTAssertEqual(disposed, [])
        first.dispose()
        first.dispose()
        XCTAssertEqual(disposed, [1])

        let second = SingleAssignmentDisposable()
        second.dispose()
        XCTAssertTrue(second.isDisposed)
        second.setDisposable(Disposables.create { disposed.append(2) })
        XCTAssertEqual(disposed, [1, 2])
    }

    func testBooleanDisposable() {
        let disposable = BooleanDisposable()
        XCTAssertFalse(disposable.isDisposed)
        disposable.dispose()
        XCTAssertTrue(disposable.isDisposed)
        XCTAssertTrue(BooleanDisposable(isDisposed: true).isDisposed)
    }

    func testRefCountDisposableWaitsForDependents() {
        var disposed = 0
        let refCount = RefCountDisposable(disposable: Disposables.create { disposed += 1 })
        let dependent1 = refCount.retain()
        let dependent2 = refCount.retain()
        refCount.dispose()
        XCTAssertEqual(disposed, 0)
        dependent1.dispose()
        dependent1.dispose()
        XCTAssertEqual(disposed, 0)
        dependent2.dispose()
        XCTAssertEqual(disposed, 1)
        XCTAssertTrue(refCount.isDisposed)
    }

    func testRefCountDisposableWithoutDependentsDisposesAtOnce() {
        var disposed = 0
        let refCount = RefCountDisposable(disposable: Disposables.create { disposed += 1 })
        refCount.dispose()
        refCount.dispose()
        XCTAssertEqual(disposed, 1)
    }

    func testScheduledDisposableDisposesOnScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        var disposedAt: Int?
        let scheduled = ScheduledDisposable(scheduler: scheduler, disposable: Disposables.create { disposedAt = scheduler.clock })
        scheduler.scheduleAt(50) { scheduled.dispose() }
        scheduler.start()
        XCTAssertEqual(disposedAt, 51, "disposal is scheduled, so it runs one tick later")
        XCTAssertTrue(scheduled.isDisposed)
    }

    func testConcurrentDisposeRunsActionOnce() {
        final class Counter: @unchecked Sendable { // only touched with atomic-free increments under a lock
            let lock = NSLock()
            var value = 0
            func increment() { lock.lock(); value += 1; lock.unlock() }
        }
        let counter = Counter()
        for _ in 0..<200 {
            let disposable = Disposables.create(with: { counter.increment() })
            let box = UncheckedBox(disposable)
            DispatchQueue.concurrentPerform(iterations: 4) { _ in box.value.dispose() }
        }
        XCTAssertEqual(counter.value, 200)
    }
}

/// Hands a value to `concurrentPerform`; the tests use it only with thread-safe types.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
