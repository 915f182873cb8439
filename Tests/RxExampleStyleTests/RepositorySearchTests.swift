import Foundation
import RxCocoa
import RxSwift
import RxTest
import XCTest

/// The files beside this one import only RxSwift and RxCocoa, as RxSwift's example apps do,
/// and use Foundation's types; that they compile is the first check. These tests check that
/// the view model built on them runs as written.
final class RepositorySearchTests: XCTestCase {
    private struct DelayedAPI: RepositorySearchAPI {
        let scheduler: TestScheduler
        func repositories(matching query: String) -> Observable<[String]> {
            Observable.just(["\(query)-one", "\(query)-two"]).delay(.seconds(10), scheduler: scheduler)
        }
    }

    func testQueriesAreValidatedAndSearchedWhileTheIndicatorIsBusy() {
        let scheduler = TestScheduler(initialClock: 0)
        let date = Date(timeIntervalSince1970: 1_000)
        SharingScheduler.mock(scheduler: scheduler) {
            let query = scheduler.createHotObservable([.next(100, ""), .next(200, "a b"), .next(300, " rx ")])
            let viewModel = RepositorySearchViewModel(query: query.asDriver(onErrorJustReturn: ""),
                                                      api: DelayedAPI(scheduler: scheduler), now: { date })
            let state = scheduler.start(created: 0, subscribed: 0, disposed: 1_000) { viewModel.state.asObservable() }
            XCTAssertEqual(state.events.map(\.value.element), [
                .idle, .invalid(reason: "Only letters, digits, - and _"), .results(["rx-one", "rx-two"], searchedAt: date),
            ])
        }
    }

    func testTheIndicatorIsBusyFromSubscriptionToDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let indicator = BusyIndicator()
            let busy = scheduler.createObserver(Bool.self)
            let watching = indicator.asDriver().drive(busy)
            let tracked = Observable<Int>.never().trackBusy(indicator).subscribe()
            scheduler.scheduleAt(50) { tracked.dispose() }
            scheduler.start()
            watching.dispose()
            XCTAssertEqual(busy.events.map(\.value.element), [false, true, false])
        }
    }
}
