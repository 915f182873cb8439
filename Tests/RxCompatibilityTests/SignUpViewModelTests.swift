import RxSwift
import RxBlocking
import RxCocoa
import RxRelay
import RxTest
import XCTest

/// The sign-up view model on virtual time: the test scheduler is both the sharing scheduler
/// of Driver/Signal and the host of `MainScheduler` (for the binders).
final class SignUpViewModelTests: XCTestCase {
    private var resourcesAtStart: Int32 = 0

    override func setUp() {
        super.setUp()
        resourcesAtStart = Resources.total
    }

    override func tearDown() {
        MainScheduler.resetHost()
        let deadline = Date().addingTimeInterval(2)
        while Resources.total != resourcesAtStart && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.001)
        }
        XCTAssertEqual(Resources.total, resourcesAtStart, "Rx resources leaked by \(name)")
        super.tearDown()
    }

    private struct Fixture {
        let scheduler: TestScheduler
        let viewModel: SignUpViewModel
        let directory: UserDirectory
    }

    /// Typing a name that has a character that is not allowed, then a taken one, then a free
    /// one; a password and its repetition; three taps, the second while the first runs.
    private func makeFixture(scheduler: TestScheduler) -> Fixture {
        let username = scheduler.createHotObservable([
            .next(210, ""), .next(220, "ada!"), .next(230, "bob"), .next(300, "carol"), .next(302, "carol"),
        ])
        let password = scheduler.createHotObservable([.next(210, ""), .next(250, "abc"), .next(260, "secret1")])
        let repeated = scheduler.createHotObservable([.next(210, ""), .next(270, "secret2"), .next(280, "secret1")])
        let taps = scheduler.createHotObservable([.next(400, ()), .next(405, ()), .next(500, ())])
        let directory = UserDirectory(users: ["bob"], latency: .seconds(10), scheduler: scheduler)
        let input = SignUpViewModel.Input(
            username: username.asDriver(onErrorJustReturn: ""),
            password: password.asDriver(onErrorJustReturn: ""),
            repeatedPassword: repeated.asDriver(onErrorJustReturn: ""),
            signUpTaps: taps.asSignal(onErrorJustReturn: ())
        )
        return Fixture(scheduler: scheduler, viewModel: SignUpViewModel(input: input, directory: directory), directory: directory)
    }

    func testValidationEnablingAndSigningUp() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let fixture = makeFixture(scheduler: scheduler)
            let usernameResults = scheduler.createObserver(ValidationResult.self)
            let enabled = scheduler.createObserver(Bool.self)
            let spinner = scheduler.createObserver(Bool.self)
            let signedUp = scheduler.createObserver(Bool.self)
            let bag = DisposeBag()
            fixture.viewModel.validatedUsername.drive(usernameResults).disposed(by: bag)
            fixture.viewModel.signUpEnabled.drive(enabled).disposed(by: bag)
            fixture.viewModel.signingUp.drive(spinner).disposed(by: bag)
            fixture.viewModel.signedUp.emit(to: signedUp).disposed(by: bag)
            scheduler.start()

            // Each input reaches the driver one tick late (moved onto the scheduler); the
            // check of a name shows `.validating` at once and its answer after the directory's
            // 10 ticks and one more to the scheduler; the repeated "carol" is dropped.
            XCTAssertEqual(usernameResults.events, [
                .next(212, .empty),
                .next(222, .failed(message: "Username can only contain letters and digits")),
                .next(231, .validating),
                .next(242, .failed(message: "Username already taken")),
                .next(301, .validating),
                .next(312, .ok(message: "Username available")),
            ])
            // A tap reaches the sign-up two ticks late (signal, then driver); the second tap
            // comes while the first sign-up runs and is ignored (flatMapFirst); the third finds
            // "carol" taken by the first. The spinner's relay moves its values to the scheduler
            // (one more tick); the button is off while the spinner shows.
            XCTAssertEqual(spinner.events, [.next(1, false), .next(403, true), .next(413, false), .next(503, true), .next(513, false)])
            XCTAssertEqual(enabled.events, [
                .next(212, false), .next(312, true), .next(403, false), .next(413, true), .next(503, false), .next(513, true),
            ])
            XCTAssertEqual(signedUp.events, [.next(414, true), .next(514, false)])
        }
    }

    func testScreenBindingsThroughDriveEmitBinderAndRx() {
        let scheduler = TestScheduler(initialClock: 0)
        MainScheduler.setHost(scheduler)
        let screen = SignUpScreen()
        SharingScheduler.mock(scheduler: scheduler) {
            let fixture = makeFixture(scheduler: scheduler)
            let bag = DisposeBag()
            screen.bind(to: fixture.viewModel, disposeBag: bag)
            var spinnerAt450 = true
            var messageAt235 = ""
            scheduler.scheduleAt(235) { messageAt235 = screen.usernameMessage }
            scheduler.scheduleAt(450) { spinnerAt450 = screen.spinnerVisible }
            scheduler.start()
            XCTAssertEqual(messageAt235, "Checking...")
            XCTAssertFalse(spinnerAt450)
        }
        XCTAssertEqual(screen.usernameMessage, "Username available")
        XCTAssertTrue(screen.signUpButtonEnabled, "the button follows the validation made before the sign-up")
        XCTAssertEqual(screen.alerts, ["Welcome!", "Sign-up failed"])
    }

    func testOutcomesAsAsyncValues() async {
        let scheduler = TestScheduler(initialClock: 0)
        var outcomes: [String] = []
        var stream: AsyncStream<String>?
        SharingScheduler.mock(scheduler: scheduler) {
            let fixture = makeFixture(scheduler: scheduler)
            stream = fixture.viewModel.outcomes.values
            scheduler.start()
        }
        // The stream buffered the outcomes; leaving the loop early disposes its subscription.
        for await outcome in stream! {
            outcomes.append(outcome)
            if outcomes.count == 2 { break }
        }
        XCTAssertEqual(outcomes, ["signed up", "sign-up refused"])
    }

    func testPasswordRuleAndDirectoryThroughBlockingAndAwait() async throws {
        let results = try Observable.from(["", "abc", "secret1"])
            .map(SignUpViewModel.validatePassword)
            .toBlocking()
            .toArray()
        XCTAssertEqual(results, [.empty, .failed(message: "Password must be at least 6 characters"), .ok(message: "Password acceptable")])

        let directory = UserDirectory(users: ["bob"], latency: .milliseconds(1), scheduler: ConcurrentDispatchQueueScheduler(qos: .default))
        let bobFree = try await directory.usernameAvailable("Bob").value
        let adaFree = try await directory.usernameAvailable("ada").value
        XCTAssertFalse(bobFree)
        XCTAssertTrue(adaFree)
    }
}
