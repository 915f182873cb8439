import RxCocoa
import RxSwift
import RxTest
import SignUp
import XCTest

/// The sign-up view model on virtual time, as an iOS app tests it with RxTest: the test
/// scheduler drives Driver and Signal (`SharingScheduler.mock`) and the service's latency.
final class SignUpViewModelTests: XCTestCase {
    private var resourcesAtStart: Int32 = 0

    override func setUp() {
        super.setUp()
        resourcesAtStart = Resources.total
    }

    override func tearDown() {
        XCTAssertEqual(Resources.total, resourcesAtStart, "Rx resources left by \(name)")
        super.tearDown()
    }

    /// Runs the view model over these inputs with a service that knows "ada" and answers in 50 ticks.
    private func run(
        username: [Recorded<Event<String>>], password: [Recorded<Event<String>>] = [.next(200, "")],
        repeated: [Recorded<Event<String>>] = [.next(200, "")], taps: [Recorded<Event<Void>>] = [],
        _ check: (TestScheduler, SignUpViewModel) -> Void
    ) {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let service = InMemorySignUpService(users: ["ada"], latency: .seconds(50), scheduler: scheduler)
            let input = SignUpViewModel.Input(
                username: scheduler.createHotObservable(username).asDriver(onErrorJustReturn: ""),
                password: scheduler.createHotObservable(password).asDriver(onErrorJustReturn: ""),
                repeatedPassword: scheduler.createHotObservable(repeated).asDriver(onErrorJustReturn: ""),
                signUpTaps: scheduler.createHotObservable(taps).asSignal(onErrorSignalWith: .empty()))
            check(scheduler, SignUpViewModel(input: input, service: service))
        }
    }

    func testTheUsernameIsCheckedWithTheServiceWhileTheIndicatorShowsIt() {
        run(username: [.next(200, ""), .next(210, "bad name"), .next(220, "Ada"), .next(300, "grace")]) { scheduler, viewModel in
            let results = scheduler.createObserver(ValidationResult.self)
            let checking = scheduler.createObserver(Bool.self)
            let bag = DisposeBag()
            scheduler.scheduleAt(100) {
                viewModel.validatedUsername.drive(results).disposed(by: bag)
                viewModel.checking.drive(checking).disposed(by: bag)
            }
            scheduler.start()
            // Each hop onto the Driver's scheduler takes one tick, as with RxSwift and RxTest.
            XCTAssertEqual(results.events, [
                .next(202, .empty),
                .next(212, .failed(message: "Username can only contain letters and digits")),
                .next(221, .validating),
                .next(272, .failed(message: "Username already taken")),
                .next(301, .validating),
                .next(352, .ok(message: "Username available")),
            ])
            XCTAssertEqual(checking.events, [
                .next(101, false), .next(222, true), .next(273, false), .next(302, true), .next(353, false),
            ])
        }
    }

    func testANewNameCancelsTheCheckOfTheOldOne() {
        run(username: [.next(200, "grace"), .next(230, "ada")]) { scheduler, viewModel in
            let results = scheduler.createObserver(ValidationResult.self)
            let bag = DisposeBag()
            scheduler.scheduleAt(100) { viewModel.validatedUsername.drive(results).disposed(by: bag) }
            scheduler.start()
            // No answer for "grace" (due at 251): the check was dropped at 230.
            XCTAssertEqual(results.events, [
                .next(201, .validating), .next(231, .validating), .next(282, .failed(message: "Username already taken")),
            ])
        }
    }

    func testPasswordsAreValidatedWithMessages() {
        run(username: [.next(200, "")],
            password: [.next(200, ""), .next(210, "abc"), .next(220, "secret")],
            repeated: [.next(200, ""), .next(230, "secreT"), .next(240, "secret")]) { scheduler, viewModel in
            let password = scheduler.createObserver(ValidationResult.self)
            let repeated = scheduler.createObserver(ValidationResult.self)
            let bag = DisposeBag()
            scheduler.scheduleAt(100) {
                viewModel.validatedPassword.drive(password).disposed(by: bag)
                viewModel.validatedRepeatedPassword.drive(repeated).disposed(by: bag)
            }
            scheduler.start()
            XCTAssertEqual(password.events, [
                .next(201, .empty), .next(211, .failed(message: "Password must be at least 6 characters")),
                .next(221, .ok(message: "Password acceptable")),
            ])
            XCTAssertEqual(repeated.events, [
                .next(201, .empty), .next(211, .empty), .next(221, .empty),
                .next(231, .failed(message: "Passwords differ")), .next(241, .ok(message: "Password repeated")),
            ])
        }
    }

    func testTheButtonIsEnabledOnlyWhenAllIsValidAndATapSignsUpOnce() {
        run(username: [.next(200, "grace")],
            password: [.next(200, "secret")],
            repeated: [.next(200, ""), .next(300, "secret")],
            taps: [.next(400, ()), .next(410, ()), .next(500, ())]) { scheduler, viewModel in
            let enabled = scheduler.createObserver(Bool.self)
            let signedUp = scheduler.createObserver(Bool.self)
            let bag = DisposeBag()
            scheduler.scheduleAt(100) {
                viewModel.signUpEnabled.drive(enabled).disposed(by: bag)
                viewModel.signedUp.emit(to: signedUp).disposed(by: bag)
            }
            scheduler.start()
            // Checking the name (200-250) and signing up (400-450) disable the button; the tap
            // at 410 comes while the first runs and is dropped (flatMapFirst); the one at 500
            // finds the name taken by the first.
            XCTAssertEqual(enabled.events, [
                .next(201, false), .next(301, true), .next(402, false), .next(453, true), .next(502, false), .next(553, true),
            ])
            XCTAssertEqual(signedUp.events, [.next(452, true), .next(552, false)])
        }
    }
}
