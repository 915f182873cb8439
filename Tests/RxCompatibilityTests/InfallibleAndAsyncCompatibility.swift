import Foundation
import RxSwift
import RxBlocking
import RxCocoa
import RxTest
import XCTest

// App code written the way it is written against RxSwift 6.9 / main: only the imports name
// our modules. A counter screen binds its Infallible outputs with every `bind(to:)` form
// RxCocoa offers; a feed loads through `Single.create(detached:priority:work:)` and streams
// through `AsyncSequence.asObservable(priority:)`; outputs are handed on as `Infallible` from
// Driver, Signal and ControlEvent; `RxObservable` and `RxCocoaError` are spelled as RxSwift
// spells them.

private final class CounterViewModel {
    let count: Infallible<Int>
    let label: Infallible<String>

    init(increments: Observable<Int>) {
        count = increments
            .scan(0, accumulator: +)
            .asInfallible(onErrorJustReturn: -1)
        label = count.map { "\($0) taps" }
    }
}

private final class CounterScreen {
    let shownCount = BehaviorRelay<Int>(value: 0)
    let shownOptionalCount = BehaviorRelay<Int?>(value: nil)
    let countEvents = PublishRelay<Int>()
    let optionalCountEvents = PublishRelay<Int?>()
    let replayedCounts = ReplayRelay<Int>.create(bufferSize: 2)
    let optionalReplayedCounts = ReplayRelay<Int?>.create(bufferSize: 1)
    private(set) var labels: [String] = []

    var labelBinder: Binder<String> {
        Binder(self) { screen, label in screen.labels.append(label) }
    }
}

/// Binds `source` to a label list; the form `bind(to: { ... })` calls.
private func bindLabels(_ list: @escaping (String) -> Void) -> (Infallible<String>) -> Disposable {
    { source in source.bind(onNext: list) }
}

/// A curried binder, for `bind(to:curriedArgument:)`.
private func bindPrefixed(_ source: Infallible<String>) -> (String) -> Disposable {
    { prefix in source.map { prefix + $0 }.bind(onNext: { _ in }) }
}

private enum FeedError: Error, Equatable {
    case offline
}

/// An async API as apps wrap it for Rx.
private struct FeedAPI: Sendable {
    let online: Bool

    func headlines() async throws -> [String] {
        guard online else { throw FeedError.offline }
        return ["rx", "swift"]
    }

    func liveHeadlines() -> AsyncThrowingStream<String, Error> {
        AsyncThrowingStream { continuation in
            continuation.yield("first")
            continuation.yield("second")
            continuation.finish()
        }
    }
}

private final class FeedRepository {
    private let api: FeedAPI

    init(api: FeedAPI) {
        self.api = api
    }

    func headlines() -> Single<[String]> {
        let api = api
        return Single.create(detached: true, priority: .userInitiated) {
            try await api.headlines()
        }
    }

    func firstHeadline() -> Single<String> {
        let api = api
        return Single<String>.create {
            try await api.headlines().first ?? "none"
        }
    }

    func live() -> RxObservable<String> {
        api.liveHeadlines().asObservable(priority: .utility)
    }

    func liveOnDefaultPriority() -> Observable<String> {
        api.liveHeadlines().asObservable()
    }
}

final class InfallibleAndAsyncCompatibilityTests: RxCompatibilityTestCase {
    func testInfallibleBindsToObserversRelaysAndBinders() {
        let scheduler = TestScheduler(initialClock: 0)
        let taps = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        let viewModel = CounterViewModel(increments: taps.asObservable())
        let screen = CounterScreen()
        let counts = scheduler.createObserver(Int.self)
        let optionalCounts = scheduler.createObserver(Int?.self)
        let disposeBag = DisposeBag()

        scheduler.scheduleAt(200) {
            viewModel.count.bind(to: counts).disposed(by: disposeBag)
            viewModel.count.bind(to: optionalCounts).disposed(by: disposeBag)
            viewModel.count.bind(to: screen.shownCount).disposed(by: disposeBag)
            viewModel.count.bind(to: screen.shownOptionalCount).disposed(by: disposeBag)
            viewModel.count.bind(to: screen.countEvents, screen.countEvents).disposed(by: disposeBag)
            viewModel.count.bind(to: screen.optionalCountEvents).disposed(by: disposeBag)
            viewModel.count.bind(to: screen.replayedCounts).disposed(by: disposeBag)
            viewModel.count.bind(to: screen.optionalReplayedCounts).disposed(by: disposeBag)
            viewModel.label.bind(to: screen.labelBinder).disposed(by: disposeBag)
            viewModel.label.bind(to: bindLabels { _ in }).disposed(by: disposeBag)
            viewModel.label.bind(to: bindPrefixed, curriedArgument: "> ").disposed(by: disposeBag)
        }
        let published = scheduler.createObserver(Int.self)
        let optionalPublished = scheduler.createObserver(Int?.self)
        scheduler.scheduleAt(215) {
            screen.countEvents.bind(to: published).disposed(by: disposeBag)
            screen.optionalCountEvents.bind(to: optionalPublished).disposed(by: disposeBag)
        }
        scheduler.start()

        XCTAssertEqual(counts.events, [.next(210, 1), .next(220, 3), .next(230, 6)])
        XCTAssertEqual(optionalCounts.events, [.next(210, 1), .next(220, 3), .next(230, 6)])
        // Two relays named in one call: each element is accepted twice.
        XCTAssertEqual(published.events, [.next(220, 3), .next(220, 3), .next(230, 6), .next(230, 6)])
        XCTAssertEqual(optionalPublished.events, [.next(220, 3), .next(230, 6)])
        XCTAssertEqual(screen.shownCount.value, 6)
        XCTAssertEqual(screen.shownOptionalCount.value, 6)
        XCTAssertEqual(try screen.replayedCounts.take(2).toBlocking().toArray(), [3, 6])
        XCTAssertEqual(try screen.optionalReplayedCounts.take(1).toBlocking().toArray(), [6])
        XCTAssertEqual(screen.labels, ["1 taps", "3 taps", "6 taps"])
        XCTAssertEqual(taps.subscriptions.count, 11)
    }

    func testAsyncWorkAndAsyncSequencesAsRxSequences() throws {
        let repository = FeedRepository(api: FeedAPI(online: true))
        XCTAssertEqual(try repository.headlines().toBlocking().single(), ["rx", "swift"])
        XCTAssertEqual(try repository.firstHeadline().toBlocking().single(), "rx")
        XCTAssertEqual(try repository.live().toBlocking().toArray(), ["first", "second"])
        XCTAssertEqual(try repository.liveOnDefaultPriority().toBlocking().toArray(), ["first", "second"])

        let offline = FeedRepository(api: FeedAPI(online: false))
        XCTAssertThrowsError(try offline.headlines().toBlocking().single()) { error in
            XCTAssertEqual(error as? FeedError, .offline)
        }
    }

    func testSharedSequencesAndControlEventsAsInfallible() throws {
        let relay = BehaviorRelay(value: "draft")
        let text: Infallible<String> = relay.asDriver().asInfallible()
        let submits = PublishRelay<Void>()
        let submitted: Infallible<Void> = submits.asSignal().asInfallible()
        let event: Infallible<Int> = ControlEvent(events: Observable.of(1, 2)).asInfallible()

        var texts: [String] = []
        var submitCount = 0
        let disposeBag = DisposeBag()
        text.subscribe(onNext: { texts.append($0) }).disposed(by: disposeBag)
        submitted.subscribe(onNext: { submitCount += 1 }).disposed(by: disposeBag)
        relay.accept("sent")
        submits.accept(())
        XCTAssertEqual(texts, ["draft", "sent"])
        XCTAssertEqual(submitCount, 1)
        XCTAssertEqual(try event.toBlocking().toArray(), [1, 2])
    }

    func testInfallibleCombineLatestWithSelectorAndDebugAndCompletableFactories() throws {
        let sum = Infallible.combineLatest(Infallible.just(1), Infallible.just(2)) { $0 + $1 }
        let sums: [Int] = try sum.debug("sum", trimOutput: true).asObservable().toBlocking().toArray()
        XCTAssertEqual(sums, [3])
        XCTAssertThrowsError(try Completable.error(FeedError.offline).toBlocking().first())
        XCTAssertThrowsError(try Completable.never().toBlocking(timeout: 0.01).first()) { error in
            guard case RxError.timeout? = error as? RxError else { return XCTFail("\(error)") }
        }
    }

    func testRxCocoaErrorDescribesItself() {
        let error: Error = RxCocoaError.invalidPropertyName(object: "screen", propertyName: "title")
        guard case RxCocoaError.invalidPropertyName(_, let name)? = error as? RxCocoaError else {
            return XCTFail("not an RxCocoaError")
        }
        XCTAssertEqual(name, "title")
        XCTAssertTrue(RxCocoaError.unknown.debugDescription.contains("Unknown"))
    }
}
