import Foundation

/// The checks both sign-up view models make (Drivers in `SignUpViewModel`, plain Observables
/// in `ObservableSignUpViewModel`), so that the two differ only in how they are wired.
public enum SignUpValidation {
    public static let minimumPasswordLength = 6

    /// What the username says without asking the service: empty, or not letters and digits
    /// only; `nil` when only the service can tell.
    public static func usernameBeforeService(_ username: String) -> ValidationResult? {
        if username.isEmpty { return .empty }
        if username.rangeOfCharacter(from: CharacterSet.alphanumerics.inverted) != nil {
            return .failed(message: "Username can only contain letters and digits")
        }
        return nil
    }

    /// The service's answer for a name, as shown under the field.
    public static func availability(_ available: Bool) -> ValidationResult {
        available ? .ok(message: "Username available") : .failed(message: "Username already taken")
    }

    public static let serviceUnreachable = ValidationResult.failed(message: "Error contacting server")

    public static func password(_ password: String) -> ValidationResult {
        if password.isEmpty { return .empty }
        return password.count >= minimumPasswordLength
            ? .ok(message: "Password acceptable")
            : .failed(message: "Password must be at least \(minimumPasswordLength) characters")
    }

    public static func repeatedPassword(_ password: String, _ repeated: String) -> ValidationResult {
        if repeated.isEmpty { return .empty }
        return repeated == password ? .ok(message: "Password repeated") : .failed(message: "Passwords differ")
    }

    /// Whether the form may be sent: every field valid and nothing under way.
    public static func canSignUp(_ username: ValidationResult, _ password: ValidationResult,
                                 _ repeated: ValidationResult, checking: Bool) -> Bool {
        username.isValid && password.isValid && repeated.isValid && !checking
    }
}
