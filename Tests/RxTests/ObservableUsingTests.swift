import RxSwift
import RxTest
import XCTest

/// A resource that records when it was made and disposed.
private final class TestResource: Disposable {
    let scheduler: TestScheduler
    private(set) var disposedAt: [TestTime] = []

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    func dispose() {
        disposedAt.append(scheduler.clock)
    }
}

final class ObservableUsingTests: RxTestCase {
    func testUsingDisposesResourceWhenSourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        var resources: [TestResource] = []
        var xs: TestableObservable<Int>?
        let res = scheduler.start {
            Observable.using({ () -> TestResource in
                let resource = TestResource(scheduler: scheduler)
                resources.append(resource)
                return resource
            }, observableFactory: { _ in
                let cold = scheduler.createColdObservable([.next(10, 1), .completed(20)])
                xs = cold
                return cold.asObservable()
            })
        }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(xs?.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(resources.count, 1)
        XCTAssertEqual(resources.first?.disposedAt, [220])
    }

    func testUsingDisposesResourceOnErrorAndOnDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        var resources: [TestResource] = []
        let failing = scheduler.start {
            Observable<Int>.using({ () -> TestResource in
                let resource = TestResource(scheduler: scheduler)
                resources.append(resource)
                return resource
            }, observableFactory: { _ in scheduler.createColdObservable([.next(5, 1), .error(30, testError)]).asObservable() })
        }
        XCTAssertEqual(failing.events, [.next(205, 1), .error(230, testError)])
        XCTAssertEqual(resources.last?.disposedAt, [230])

        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) {
            Observable<Int>.using({ () -> TestResource in
                let resource = TestResource(scheduler: scheduler)
                resources.append(resource)
                return resource
            }, observableFactory: { _ in scheduler.createColdObservable([.next(10, 7), .next(100, 8)]).asObservable() })
        }
        XCTAssertEqual(disposed.events, [.next(1210, 7)])
        XCTAssertEqual(resources.last?.disposedAt, [1250])
    }

    func testUsingFactoryErrorsFailTheSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let resourceFails = scheduler.start {
            Observable<Int>.using({ () -> TestResource in throw testError }, observableFactory: { _ in .never() })
        }
        XCTAssertEqual(resourceFails.events, [.error(200, testError)])

        var resource: TestResource?
        let observableFails = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
            Observable<Int>.using({ () -> TestResource in
                let made = TestResource(scheduler: scheduler)
                resource = made
                return made
            }, observableFactory: { _ in throw testError1 })
        }
        XCTAssertEqual(observableFails.events, [.error(1200, testError1)])
        XCTAssertEqual(resource?.disposedAt, [1200])
    }

    func testUsingReentrantObserverFeedingSource() {
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        var anomalies: [SynchronizationAnomaly] = []
        anomalies = recordingAnomalies {
            let subscription = Observable.using({ BooleanDisposable() }, observableFactory: { _ in subject.asObservable() })
                .subscribe(onNext: { value in
                    values.append(value)
                    if value == 1 { subject.onNext(2) }
                })
            subject.onNext(1)
            subscription.dispose()
        }
        XCTAssertEqual(values, [1, 2])
        XCTAssertEqual(anomalies.contains(.reentrancy), reentrancyIsTracked)
    }
}
