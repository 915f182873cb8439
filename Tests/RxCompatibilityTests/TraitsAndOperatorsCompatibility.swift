import Foundation
import RxSwift
import RxBlocking
import RxRelay
import RxTest
import XCTest

// App code written the way it is written against RxSwift 6.9: only the imports name our
// modules. It uses Single/Maybe/Completable zip, andThen, ifEmpty, timeout,
// catchAndReturn, decode, withUnretained, subscribe(with:) and the DisposeBag builder.

private struct User: Decodable, Equatable {
    let id: Int
    let name: String
}

private struct Settings: Decodable, Equatable {
    let theme: String
}

/// The requests a profile screen makes.
private protocol ProfileAPI {
    func signIn() -> Completable
    func fetchUser(id: Int) -> Single<User>
    func fetchSettings() -> Observable<Data>
    func avatar(for user: User) -> Maybe<String>
    func badge(for user: User) -> Maybe<String>
    func markSeen(userID: Int) -> Completable
    func flushCache() -> Completable
    func signOut() -> Completable
}

private final class ProfileViewModel {
    struct Profile: Equatable {
        let name: String
        let avatar: String
        let theme: String

        static let placeholder = Profile(name: "-", avatar: "default.png", theme: "light")
    }

    // Inputs
    let reload = PublishRelay<Void>()
    // Outputs
    let profile = BehaviorRelay<Profile?>(value: nil)
    private(set) var shown: [String] = []

    private let api: ProfileAPI
    private let disposeBag = DisposeBag()

    init(api: ProfileAPI, userID: Int, scheduler: SchedulerType) {
        self.api = api
        let settings = api.fetchSettings()
            .decode(type: Settings.self, decoder: JSONDecoder())
            .asSingle()
        let load: Single<Profile> = api.signIn()
            .andThen(Single.zip(api.fetchUser(id: userID), settings))
            .flatMap { user, settings in
                Maybe.zip(api.avatar(for: user), api.badge(for: user)) { "\($0)#\($1)" }
                    .ifEmpty(default: "default.png")
                    .map { Profile(name: user.name, avatar: $0, theme: settings.theme) }
            }
            .timeout(.seconds(60), scheduler: scheduler)
            .catchAndReturn(.placeholder)

        disposeBag.insert {
            reload.withUnretained(self)
                .flatMapLatest { _, _ in load.asObservable() }
                .bind(to: profile)
            profile.compactMap { $0?.name }
                .subscribe(with: self, onNext: { owner, name in owner.shown.append(name) })
        }
    }

    /// Marks the profile seen while flushing the cache, then signs out.
    func finish(userID: Int) -> Completable {
        Completable.zip(api.markSeen(userID: userID), api.flushCache())
            .andThen(api.signOut())
    }
}

private extension ObservableType where Element == Any {
    /// A helper in the style of RxFeedback's: it calls the tuple forms of `combineLatest` and
    /// `zip` unqualified, which works because they live on `Element == Any`.
    static func allTrue(_ first: Observable<Bool>, _ second: Observable<Bool>) -> Observable<Bool> {
        combineLatest(first, second).map { $0 && $1 }
    }

    static func pairs(_ first: Observable<Int>, _ second: Observable<String>) -> Observable<String> {
        zip(first, second).map { "\($0)\($1)" }
    }
}

/// Answers each request after a fixed virtual delay, and records the requests.
private final class ScheduledProfileAPI: ProfileAPI {
    let scheduler: TestScheduler
    /// Virtual time the user request takes.
    var userDelay: TestTime = 20
    private(set) var requests: [String] = []

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    private func done(_ name: String, after delay: TestTime) -> Completable {
        Completable.deferred {
            self.requests.append(name)
            return self.scheduler.createColdObservable([.completed(delay)] as [Recorded<Event<Never>>]).asCompletable()
        }
    }

    /// `delay` is read at each subscription, so changing `userDelay` affects later requests.
    private func value<Value>(_ name: String, _ value: Value?, after delay: @escaping @autoclosure () -> TestTime) -> Observable<Value> {
        Observable.deferred {
            self.requests.append(name)
            let events: [Recorded<Event<Value>>] = value.map { [.next(delay(), $0), .completed(delay())] } ?? [.completed(delay())]
            return self.scheduler.createColdObservable(events).asObservable()
        }
    }

    func signIn() -> Completable { done("signIn", after: 5) }
    func fetchUser(id: Int) -> Single<User> { value("user \(id)", User(id: id, name: "user\(id)"), after: self.userDelay).asSingle() }
    func fetchSettings() -> Observable<Data> { value("settings", Data(#"{"theme":"dark"}"#.utf8), after: 10) }
    func avatar(for user: User) -> Maybe<String> { value("avatar", user.id == 1 ? "a1.png" : nil, after: 5).asMaybe() }
    func badge(for user: User) -> Maybe<String> { value("badge", "gold", after: 3).asMaybe() }
    func markSeen(userID: Int) -> Completable { done("seen \(userID)", after: 3) }
    func flushCache() -> Completable { done("flush", after: 7) }
    func signOut() -> Completable { done("signOut", after: 4) }
}

final class TraitsAndOperatorsCompatibilityTests: XCTestCase {
    private var resourcesAtStart: Int32 = 0

    override func setUp() {
        super.setUp()
        resourcesAtStart = Resources.total
    }

    override func tearDown() {
        let deadline = Date().addingTimeInterval(2)
        while Resources.total != resourcesAtStart && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.001)
        }
        XCTAssertEqual(Resources.total, resourcesAtStart, "Rx resources leaked by \(name)")
        super.tearDown()
    }

    func testReloadLoadsTheProfileThroughEveryTrait() {
        let scheduler = TestScheduler(initialClock: 0)
        let api = ScheduledProfileAPI(scheduler: scheduler)
        var viewModel: ProfileViewModel? = ProfileViewModel(api: api, userID: 1, scheduler: scheduler)
        weak let released = viewModel
        let names = scheduler.createObserver(String?.self)
        let taps = scheduler.createHotObservable([.next(210, ()), .next(400, ())])
        let bag = DisposeBag {
            viewModel!.profile.map { $0.map { "\($0.name) \($0.avatar) \($0.theme)" } }.subscribe(names)
            taps.bind(to: viewModel!.reload)
        }
        scheduler.start()

        // signIn 210-215, then user (215-235) and settings (215-225) together, then
        // avatar (235-240) and badge (235-238) together.
        XCTAssertEqual(names.events, [.next(0, nil), .next(240, "user1 a1.png#gold dark"), .next(430, "user1 a1.png#gold dark")])
        XCTAssertEqual(api.requests, ["signIn", "user 1", "settings", "avatar", "badge", "signIn", "user 1", "settings", "avatar", "badge"])
        XCTAssertEqual(viewModel!.shown, ["user1", "user1"])
        viewModel = nil
        XCTAssertNil(released, "withUnretained and subscribe(with:) must not retain the view model")
        _ = bag
    }

    func testEmptyMaybeFallsBackAndSlowRequestTimesOut() {
        let scheduler = TestScheduler(initialClock: 0)
        let api = ScheduledProfileAPI(scheduler: scheduler)
        let viewModel = ProfileViewModel(api: api, userID: 2, scheduler: scheduler)
        let profiles = scheduler.createObserver(ProfileViewModel.Profile?.self)
        let bag = DisposeBag()
        viewModel.profile.subscribe(profiles).disposed(by: bag)
        scheduler.scheduleAt(210) { viewModel.reload.accept(()) }
        scheduler.scheduleAt(300) { api.userDelay = 100 }
        scheduler.scheduleAt(310) { viewModel.reload.accept(()) }
        scheduler.start()

        XCTAssertEqual(profiles.events, [
            .next(0, nil),
            // No avatar: the zipped Maybe is empty and ifEmpty gives the default.
            .next(240, ProfileViewModel.Profile(name: "user2", avatar: "default.png", theme: "dark")),
            // The user request takes 100, past the 60 timeout: catchAndReturn gives the placeholder.
            .next(370, .placeholder),
        ])
        XCTAssertEqual(viewModel.shown, ["user2", "-"])
    }

    func testFinishRunsZipThenAndThen() {
        let scheduler = TestScheduler(initialClock: 0)
        let api = ScheduledProfileAPI(scheduler: scheduler)
        let viewModel = ProfileViewModel(api: api, userID: 1, scheduler: scheduler)
        let res = scheduler.start { viewModel.finish(userID: 1).asObservable() }
        // markSeen (3) and flush (7) at once, then signOut (4).
        XCTAssertEqual(res.events, [.completed(211)])
        XCTAssertEqual(api.requests, ["seen 1", "flush", "signOut"])
    }

    func testTupleFormsOfCombineLatestAndZipLiveOnElementAny() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createHotObservable([.next(210, true), .next(230, false), .completed(300)])
        let second = scheduler.createHotObservable([.next(220, true), .completed(250)])
        let combined = scheduler.start { Observable.allTrue(first.asObservable(), second.asObservable()) }
        XCTAssertEqual(combined.events, [.next(220, true), .next(230, false), .completed(300)])

        let numbers = scheduler.createHotObservable([.next(1210, 1), .next(1220, 2), .completed(1300)])
        let letters = scheduler.createHotObservable([.next(1215, "a"), .completed(1250)])
        let zipped = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Observable<Any>.pairs(numbers.asObservable(), letters.asObservable())
        }
        XCTAssertEqual(zipped.events.first, .next(1215, "1a"))
        XCTAssertEqual(numbers.subscriptions.first?.subscribe, 1200)
    }

    func testBlockingOnRealSchedulers() throws {
        let background = ConcurrentDispatchQueueScheduler(qos: .default)
        let zipped = Single.zip(Single.just(2).delay(.milliseconds(5), scheduler: background), Single.just(3)) { $0 * $1 }
        XCTAssertEqual(try zipped.toBlocking(timeout: 10).single(), 6)
        let chain = Completable.concat(Completable.empty(), Completable.empty().delay(.milliseconds(5), scheduler: background))
            .andThen(Maybe.just("done"))
        XCTAssertEqual(try chain.toBlocking(timeout: 10).toArray(), ["done"])
        switch Completable.error(ProfileChainError.failed).toBlocking(timeout: 10).materialize() {
        case .failed(let elements, let error):
            XCTAssertTrue(elements.isEmpty)
            XCTAssertEqual(error as? ProfileChainError, .failed)
        case .completed:
            XCTFail("expected the error")
        }
    }
}

private enum ProfileChainError: Error, Equatable {
    case failed
}
