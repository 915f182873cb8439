// A sign-up form view model written the way an iOS app written against RxSwift 6 writes it:
// only the import lines differ (`Rx` instead of `RxSwift`).
import Foundation
import RxSwift
import RxCocoa
import RxRelay

enum ValidationResult: Equatable {
    case ok(message: String)
    case empty
    case validating
    case failed(message: String)

    var isValid: Bool {
        if case .ok = self { return true }
        return false
    }
}

/// The users already registered, answering after a delay like a server would.
final class UserDirectory {
    private let scheduler: SchedulerType
    private let latency: RxTimeInterval
    private var users: Set<String>

    init(users: Set<String>, latency: RxTimeInterval, scheduler: SchedulerType) {
        self.users = users
        self.latency = latency
        self.scheduler = scheduler
    }

    func usernameAvailable(_ username: String) -> Single<Bool> {
        Single.deferred { [unowned self] in .just(!users.contains(username.lowercased())) }
            .delay(latency, scheduler: scheduler)
    }

    func signUp(_ username: String, password: String) -> Single<Bool> {
        Single<Bool>.create { [unowned self] observer in
            let work = scheduler.scheduleRelative((), dueTime: latency) { _ in
                let inserted = self.users.insert(username.lowercased()).inserted
                observer(.success(inserted))
                return Disposables.create()
            }
            return Disposables.create { work.dispose() }
        }
    }
}

/// Counts the requests under way; drives a spinner.
final class ActivityTracker: SharedSequenceConvertibleType {
    typealias SharingStrategy = DriverSharingStrategy
    typealias Element = Bool

    private let running = BehaviorRelay(value: 0)
    private let loading: Driver<Bool>

    init() {
        loading = running.asDriver().map { $0 > 0 }.distinctUntilChanged()
    }

    func track<Source: PrimitiveSequenceType>(_ source: Source) -> Observable<Source.Element> where Source.Trait == SingleTrait {
        source.primitiveSequence.asObservable()
            .do(onSubscribe: { [running] in running.accept(running.value + 1) },
                onDispose: { [running] in running.accept(running.value - 1) })
    }

    func asSharedSequence() -> SharedSequence<DriverSharingStrategy, Bool> {
        loading
    }
}

final class SignUpViewModel {
    struct Input {
        let username: Driver<String>
        let password: Driver<String>
        let repeatedPassword: Driver<String>
        let signUpTaps: Signal<Void>
    }

    let validatedUsername: Driver<ValidationResult>
    let validatedPassword: Driver<ValidationResult>
    let validatedRepeatedPassword: Driver<ValidationResult>
    let signUpEnabled: Driver<Bool>
    let signingUp: Driver<Bool>
    let signedUp: Signal<Bool>
    /// Every outcome, for a log that must never stop.
    let outcomes: Infallible<String>

    static let minimumPasswordLength = 6

    static func validatePassword(_ password: String) -> ValidationResult {
        if password.isEmpty { return .empty }
        return password.count >= minimumPasswordLength
            ? .ok(message: "Password acceptable")
            : .failed(message: "Password must be at least \(minimumPasswordLength) characters")
    }

    init(input: Input, directory: UserDirectory) {
        let activity = ActivityTracker()
        signingUp = activity.asDriver()

        validatedUsername = input.username
            .distinctUntilChanged()
            .flatMapLatest { username -> Driver<ValidationResult> in
                if username.isEmpty {
                    return .just(.empty)
                }
                if username.rangeOfCharacter(from: CharacterSet.alphanumerics.inverted) != nil {
                    return .just(.failed(message: "Username can only contain letters and digits"))
                }
                return directory.usernameAvailable(username)
                    .map { $0 ? .ok(message: "Username available") : .failed(message: "Username already taken") }
                    .asDriver(onErrorJustReturn: .failed(message: "Error contacting server"))
                    .startWith(.validating)
            }

        validatedPassword = input.password.map(Self.validatePassword)

        validatedRepeatedPassword = Driver.combineLatest(input.password, input.repeatedPassword) { password, repeated in
            if repeated.isEmpty { return .empty }
            return repeated == password ? .ok(message: "Password repeated") : .failed(message: "Passwords differ")
        }

        signUpEnabled = Driver.combineLatest(
            validatedUsername,
            validatedPassword,
            validatedRepeatedPassword,
            signingUp
        ) { username, password, repeated, signingUp in
            username.isValid && password.isValid && repeated.isValid && !signingUp
        }
        .distinctUntilChanged()

        let credentials = Driver.combineLatest(input.username, input.password) { (username: $0, password: $1) }

        signedUp = input.signUpTaps
            .withLatestFrom(credentials)
            .asDriver(onErrorDriveWith: .empty())
            .flatMapFirst { credentials in
                activity.track(directory.signUp(credentials.username, password: credentials.password))
                    .asDriver(onErrorJustReturn: false)
            }
            .asSignal(onErrorJustReturn: false)

        outcomes = signedUp.asObservable()
            .map { $0 ? "signed up" : "sign-up refused" }
            .asInfallible(onErrorJustReturn: "sign-up failed")
    }
}

/// The screen the view model drives: plain state a test can read.
final class SignUpScreen: NSObject {
    var usernameMessage = ""
    var signUpButtonEnabled = false
    var spinnerVisible = false
    var alerts: [String] = []
}

extension Reactive where Base: SignUpScreen {
    /// Shows an alert for each sign-up outcome.
    var alert: Binder<Bool> {
        Binder(base, scheduler: CurrentThreadScheduler.instance) { screen, signedUp in
            screen.alerts.append(signedUp ? "Welcome!" : "Sign-up failed")
        }
    }
}

extension SignUpScreen {
    /// Wires the view model's outputs to the screen the way a view controller's
    /// `viewDidLoad` does.
    func bind(to viewModel: SignUpViewModel, disposeBag: DisposeBag) {
        viewModel.validatedUsername
            .map { result -> String in
                switch result {
                case .ok(let message), .failed(let message): return message
                case .validating: return "Checking..."
                case .empty: return ""
                }
            }
            .drive(with: self, onNext: { screen, message in screen.usernameMessage = message })
            .disposed(by: disposeBag)

        viewModel.signUpEnabled
            .drive(onNext: { [weak self] in self?.signUpButtonEnabled = $0 })
            .disposed(by: disposeBag)

        viewModel.signingUp
            .drive(rx.spinnerVisible)
            .disposed(by: disposeBag)

        viewModel.signedUp
            .withUnretained(self)
            .map { $1 }
            .emit(to: rx.alert)
            .disposed(by: disposeBag)
    }
}
