import Foundation
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

    public static let minimumPasswordLength = 6

    public init(input: Input, service: SignUpService) {
        let activity = ActivityIndicator()
        checking = activity.asDriver()

        validatedUsername = input.username
            .distinctUntilChanged()
            .flatMapLatest { username -> Driver<ValidationResult> in
                if username.isEmpty { return .just(.empty) }
                if username.rangeOfCharacter(from: CharacterSet.alphanumerics.inverted) != nil {
                    return .just(.failed(message: "Username can only contain letters and digits"))
                }
                return activity.trackActivity(service.usernameAvailable(username))
                    .map { $0 ? .ok(message: "Username available") : .failed(message: "Username already taken") }
                    .asDriver(onErrorJustReturn: .failed(message: "Error contacting server"))
                    .startWith(.validating)
            }

        validatedPassword = input.password.map { password in
            if password.isEmpty { return .empty }
            return password.count >= Self.minimumPasswordLength
                ? .ok(message: "Password acceptable")
                : .failed(message: "Password must be at least \(Self.minimumPasswordLength) characters")
        }

        validatedRepeatedPassword = Driver.combineLatest(input.password, input.repeatedPassword) { password, repeated in
            if repeated.isEmpty { return .empty }
            return repeated == password ? .ok(message: "Password repeated") : .failed(message: "Passwords differ")
        }

        signUpEnabled = Driver.combineLatest(validatedUsername, validatedPassword, validatedRepeatedPassword, checking) {
            $0.isValid && $1.isValid && $2.isValid && !$3
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
