import RxSwift
import RxTest
import XCTest

/// As in RxSwift, a disposed subscription lets go of its observer even while its owner keeps
/// the `Disposable`: a view model that stores `subscribe { self... }` in a property and
/// disposes it must not be kept alive by it. (A sink that is itself the returned subscription
/// would hold its observer, and with it `self`, until the property is cleared.)
final class SubscriptionRetentionTests: RxTestCase {
    private final class Owner {}

    private func assertDisposingReleasesTheObserver(
        _ name: String, _ make: (Observable<Int>) -> Observable<Int>, line: UInt = #line
    ) {
        let subject = PublishSubject<Int>()
        weak var released: Owner?
        var kept: Disposable?
        do {
            let owner = Owner()
            released = owner
            kept = make(subject.asObservable()).subscribe { _ in _ = owner }
        }
        XCTAssertNotNil(released, "\(name): a live subscription holds its observer", line: line)
        kept?.dispose()
        XCTAssertNil(released, "\(name): the disposed subscription still holds its observer", line: line)
        withExtendedLifetime(kept) {}
    }

    func testADisposedSubscriptionThatIsKeptHoldsNoObserver() {
        assertDisposingReleasesTheObserver("map") { $0.map { $0 + 1 } }
        assertDisposingReleasesTheObserver("filter") { $0.filter { $0 > 0 } }
        assertDisposingReleasesTheObserver("map/filter chain") { $0.map { $0 * 2 }.filter { $0 > 0 }.map { $0 - 1 } }
        assertDisposingReleasesTheObserver("create") { source in
            Observable.create { observer in source.subscribe(observer) }
        }
        assertDisposingReleasesTheObserver("flatMap") { $0.flatMap { Observable.just($0) } }
    }
}
