import RxCocoa
import RxSwift
import RxTest
import SignUp
import XCTest

/// The plain-Observable sign-up on virtual time. Its service answers are observed on the test
/// scheduler (one tick each, as `observe(on:)` takes with RxTest); only the indicator, an
/// `ActivityIndicator` that is a Driver inside as in RxSwift's examples, needs the mock.
final class ObservableSignUpViewModelTests: XCTestCase {
    /// A service that knows "ada", answers in 50 ticks and writes down each name it is asked.
    private final class RecordingService: SignUpService {
        let base: InMemorySignUpService<TestScheduler>
        let failing: Bool
        var asked: [String] = []

        init(scheduler: TestScheduler, failing: Bool) {
            base = InMemorySignUpService(users: ["ada"], latency: .seconds(50), scheduler: scheduler)
            self.failing = failing
        }

        func usernameAvailable(_ username: String) -> Single<Bool> {
            asked.append(username)
            return failing ? .error(RxError.timeout) : base.usernameAvailable(username)
        }

        func signUp(_ username: String, password: String) -> Single<Bool> {
            base.signUp(username, password: password)
        }
    }

    private let bag = DisposeBag()

    /// What `output` gives from `time` on (a subscription kept until the test ends).
    private func record<Element>(_ output: Observable<Element>, from time: TestTime = 100,
                                 on scheduler: TestScheduler) -> TestableObserver<Element> {
        let observer = scheduler.createObserver(Element.self)
        scheduler.scheduleAt(time) { [bag] in output.subscribe(observer).disposed(by: bag) }
        return observer
    }

    private func run(
        username: [Recorded<Event<String>>], password: [Recorded<Event<String>>] = [.next(200, "")],
        repeated: [Recorded<Event<String>>] = [.next(200, "")], taps: [Recorded<Event<Void>>] = [],
        failing: Bool = false, _ check: (TestScheduler, ObservableSignUpViewModel, RecordingService) -> Void
    ) {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let service = RecordingService(scheduler: scheduler, failing: failing)
            let input = ObservableSignUpViewModel.Input(
                username: scheduler.createHotObservable(username).asObservable(),
                password: scheduler.createHotObservable(password).asObservable(),
                repeatedPassword: scheduler.createHotObservable(repeated).asObservable(),
                signUpTaps: scheduler.createHotObservable(taps).asObservable())
            check(scheduler, ObservableSignUpViewModel(input: input, service: service, scheduler: scheduler), service)
        }
    }

    func testLocalResultsComeAtOnceAndTheServicesAnswerOneTickAfterItArrives() {
        run(username: [.next(200, ""), .next(210, "bad name"), .next(220, "Ada")]) { scheduler, viewModel, _ in
            let results = record(viewModel.validatedUsername, on: scheduler)
            let checking = record(viewModel.checking, on: scheduler)
            scheduler.start()
            // No Driver hop: `.validating` comes with the name; the answer (due at 270) one tick later.
            XCTAssertEqual(results.events, [
                .next(200, .empty),
                .next(210, .failed(message: "Username can only contain letters and digits")),
                .next(220, .validating),
                .next(271, .failed(message: "Username already taken")),
            ])
            // The request counts as running until its answer has been delivered (271), and the
            // indicator's Driver takes one more tick.
            XCTAssertEqual(checking.events, [.next(101, false), .next(221, true), .next(272, false)])
        }
    }

    func testEveryOutputSharesOneCheckPerNameAndALateSubscriberSeesTheLastResult() {
        run(username: [.next(200, "grace")]) { scheduler, viewModel, service in
            let early = record(viewModel.validatedUsername, on: scheduler)
            let enabled = record(viewModel.signUpEnabled, on: scheduler)
            let late = record(viewModel.validatedUsername, from: 400, on: scheduler)
            scheduler.start()
            // share(replay: 1): the button's subscription and the late one ask the service nothing more.
            XCTAssertEqual(service.asked, ["grace"])
            XCTAssertEqual(early.events, [.next(200, .validating), .next(251, .ok(message: "Username available"))])
            XCTAssertEqual(late.events, [.next(400, .ok(message: "Username available"))])
            XCTAssertEqual(enabled.events, [.next(200, false)])
        }
    }

    func testAServiceErrorIsShownAndTheFormGoesOn() {
        run(username: [.next(200, "grace"), .next(300, "")], failing: true) { scheduler, viewModel, _ in
            let results = record(viewModel.validatedUsername, on: scheduler)
            scheduler.start()
            XCTAssertEqual(results.events, [
                .next(200, .validating), .next(201, .failed(message: "Error contacting server")), .next(300, .empty),
            ])
        }
    }

    func testTheButtonFollowsTheFieldsAndTheRequestsAndATapSignsUpOnce() {
        run(username: [.next(200, "grace")],
            password: [.next(200, "secret")],
            repeated: [.next(200, ""), .next(300, "secret")],
            taps: [.next(400, ()), .next(410, ()), .next(500, ())]) { scheduler, viewModel, _ in
            let enabled = record(viewModel.signUpEnabled, on: scheduler)
            let signedUp = record(viewModel.signedUp, on: scheduler)
            scheduler.start()
            // The tap at 410 comes while the first sign-up runs and is dropped (flatMapFirst);
            // the one at 500 finds the name taken by the first.
            XCTAssertEqual(enabled.events, [
                .next(200, false), .next(300, true), .next(401, false), .next(452, true), .next(501, false), .next(552, true),
            ])
            XCTAssertEqual(signedUp.events, [.next(451, true), .next(551, false)])
        }
    }
}
