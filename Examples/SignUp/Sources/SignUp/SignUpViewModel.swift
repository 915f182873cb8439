import RxCocoa
import RxSwift

/// The sign-up form's logic, written as an RxSwift iOS app writes it (Drivers in, Drivers
/// out): the username checked with the service while typing, the password and its repeat
/// validated, the button enabled only when all is valid and nothing is under way.
public final class SignUpViewModel {
    public struct Input {
        public let username: Driver<String>
        public let password: Driver<String>
        public let repeatedPassword: Driver<String>
        public let signUpTaps: Signal<Void>

        public init(username: Driver<String>, password: Driver<String>, repeatedPassword: Driver<String>, signUpTaps: Signal<Void>) {
            self.username = username
            self.password = password
            self.repeatedPassword = repeatedPassword
            self.signUpTaps = signUpTaps
        }
    }

    public let validatedUsername: Driver<ValidationResult>
    public let validatedPassword: Driver<ValidationResult>
    public let validatedRepeatedPassword: Driver<ValidationResult>
    public let signUpEnabled: Driver<Bool>
    /// `true` while the username is being checked or the account made.
    public let checking: Driver<Bool>
    public let signedUp: Signal<Bool>

    public init(input: Input, service: SignUpService) {
        let activity = ActivityIndicator()
        checking = activity.asDriver()

        validatedUsername = input.username
            .distinctUntilChanged()
            .flatMapLatest { username -> Driver<ValidationResult> in
                if let known = SignUpValidation.usernameBeforeService(username) { return .just(known) }
                return activity.trackActivity(service.usernameAvailable(username))
                    .map(SignUpValidation.availability)
                    .asDriver(onErrorJustReturn: SignUpValidation.serviceUnreachable)
                    .startWith(.validating)
            }

        validatedPassword = input.password.map(SignUpValidation.password)
        validatedRepeatedPassword = Driver.combineLatest(input.password, input.repeatedPassword,
                                                         resultSelector: SignUpValidation.repeatedPassword)
        signUpEnabled = Driver.combineLatest(validatedUsername, validatedPassword, validatedRepeatedPassword, checking) {
            SignUpValidation.canSignUp($0, $1, $2, checking: $3)
        }
        .distinctUntilChanged()

        let credentials = Driver.combineLatest(input.username, input.password) { (username: $0, password: $1) }
        signedUp = input.signUpTaps
            .withLatestFrom(credentials)
            .flatMapFirst { credentials in
                activity.trackActivity(service.signUp(credentials.username, password: credentials.password))
                    .asSignal(onErrorJustReturn: false)
            }
    }
}
