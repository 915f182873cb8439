import RxCocoa
import RxSwift

/// The sign-up form's logic with plain Observables, as the first of RxSwift's example
/// sign-ups is written: no Drivers, so each output is shared with `share(replay: 1)` (a page
/// and a late binding see the last value, and the service is asked once per name) and the
/// service's answers are moved back onto the view model's scheduler with `observe(on:)`.
/// It answers as `SignUpViewModel` does; only the wiring differs.
public final class ObservableSignUpViewModel {
    public struct Input {
        public let username: Observable<String>
        public let password: Observable<String>
        public let repeatedPassword: Observable<String>
        public let signUpTaps: Observable<Void>

        public init(username: Observable<String>, password: Observable<String>,
                    repeatedPassword: Observable<String>, signUpTaps: Observable<Void>) {
            self.username = username
            self.password = password
            self.repeatedPassword = repeatedPassword
            self.signUpTaps = signUpTaps
        }
    }

    public let validatedUsername: Observable<ValidationResult>
    public let validatedPassword: Observable<ValidationResult>
    public let validatedRepeatedPassword: Observable<ValidationResult>
    public let signUpEnabled: Observable<Bool>
    /// `true` while the username is being checked or the account made.
    public let checking: Observable<Bool>
    public let signedUp: Observable<Bool>

    /// `scheduler` is where the service's answers are observed: `MainScheduler.instance` in
    /// an app (on RxLive, the session's own loop), a `TestScheduler` in a marble test.
    public init(input: Input, service: SignUpService, scheduler: ImmediateSchedulerType) {
        let activity = ActivityIndicator()
        checking = activity.asObservable()

        validatedUsername = input.username
            .distinctUntilChanged()
            .flatMapLatest { username -> Observable<ValidationResult> in
                if let known = SignUpValidation.usernameBeforeService(username) { return .just(known) }
                return activity.trackActivity(service.usernameAvailable(username))
                    .map(SignUpValidation.availability)
                    .observe(on: scheduler)
                    .catchAndReturn(SignUpValidation.serviceUnreachable)
                    .startWith(.validating)
            }
            .share(replay: 1)

        validatedPassword = input.password
            .map(SignUpValidation.password)
            .share(replay: 1)

        validatedRepeatedPassword = Observable
            .combineLatest(input.password, input.repeatedPassword, resultSelector: SignUpValidation.repeatedPassword)
            .share(replay: 1)

        signUpEnabled = Observable
            .combineLatest(validatedUsername, validatedPassword, validatedRepeatedPassword, checking) {
                SignUpValidation.canSignUp($0, $1, $2, checking: $3)
            }
            .distinctUntilChanged()
            .share(replay: 1)

        let credentials = Observable.combineLatest(input.username, input.password) { (username: $0, password: $1) }
        signedUp = input.signUpTaps
            .withLatestFrom(credentials)
            .flatMapFirst { credentials in
                activity.trackActivity(service.signUp(credentials.username, password: credentials.password))
                    .observe(on: scheduler)
                    .catchAndReturn(false)
            }
            .share(replay: 1)
    }
}
