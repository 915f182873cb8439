import FoundationEssentials
import Glibc

/// The bounds on names and passwords, the same for `rxlive user add` and for the login
/// form, so an account that can be created can always log in and a login never carries
/// more than an account can hold.
public enum AccountLimits {
    /// Most Unicode scalars in a username (after NFC normalization).
    public static let maxUsernameScalars = 64
    /// Most UTF-8 bytes in a username, as sent and after NFC normalization.
    public static let maxUsernameBytes = 256
    /// Most UTF-8 bytes in a password. argon2 takes any length, but a longer one could
    /// never be typed into the form under the default message size.
    public static let maxPasswordBytes = 1024
}

/// Why a username or password is refused, in one line a person can act on.
public struct CredentialValidationError: Error, Equatable, CustomStringConvertible {
    /// What is wrong.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// The one place that decides what a username and a password may be; the command line
/// and the login service both call it.
///
/// A username is compared in Unicode Normalization Form C (NFC): it is normalized before
/// it is stored and before it is looked up, so "é" typed precomposed or as "e" + U+0301
/// names the same account. It has 1 to `AccountLimits.maxUsernameScalars` scalars and at
/// most `AccountLimits.maxUsernameBytes` UTF-8 bytes, and none of the characters that
/// `isInvisible` names (controls, formats, default-ignorable code points such as Hangul
/// fillers and variation selectors, blank symbols, unassigned and private-use code points).
/// Its only white space is U+0020, one at a time, between other characters. So two names
/// that look the same are the same name. A password has 1 to
/// `AccountLimits.maxPasswordBytes` UTF-8 bytes and is otherwise free.
public enum CredentialRules {
    /// `raw` in NFC, or the reason it cannot be a username.
    public static func normalizedUsername(_ raw: String) throws(CredentialValidationError) -> String {
        // Bounded before normalizing, so a huge name costs nothing more than its length check.
        let limit = AccountLimits.maxUsernameBytes
        guard !raw.isEmpty else { throw CredentialValidationError("a username may not be empty") }
        guard raw.utf8.count <= limit else {
            throw CredentialValidationError("a username has at most \(AccountLimits.maxUsernameScalars) characters (\(limit) UTF-8 bytes)")
        }
        // The standard library's own NFC (what String comparison uses); Foundation's
        // `precomposedStringWithCanonicalMapping` would link all of Foundation into the server.
        let normalized = String(decoding: raw._nfcCodeUnits, as: UTF8.self)
        try checkCharacters(normalized)
        guard normalized.unicodeScalars.count <= AccountLimits.maxUsernameScalars, normalized.utf8.count <= limit else {
            throw CredentialValidationError("a username has at most \(AccountLimits.maxUsernameScalars) characters (\(limit) UTF-8 bytes)")
        }
        return normalized
    }

    /// The username in `bytes` (UTF-8), normalized; invalid UTF-8 is refused, never replaced.
    public static func normalizedUsername(utf8 bytes: some Collection<UInt8>) throws(CredentialValidationError) -> String {
        try normalizedUsername(try text(utf8: bytes, what: "username"))
    }

    /// Throws when `password` is empty or longer than `AccountLimits.maxPasswordBytes`.
    public static func validatePassword(_ password: String) throws(CredentialValidationError) {
        guard !password.isEmpty else { throw CredentialValidationError("a password may not be empty") }
        guard password.utf8.count <= AccountLimits.maxPasswordBytes else {
            throw CredentialValidationError("a password has at most \(AccountLimits.maxPasswordBytes) UTF-8 bytes")
        }
    }

    /// The password in `bytes` (UTF-8), checked; invalid UTF-8 is refused, never replaced.
    public static func password(utf8 bytes: some Collection<UInt8>) throws(CredentialValidationError) -> String {
        let password = try text(utf8: bytes, what: "password")
        try validatePassword(password)
        return password
    }

    /// Throws unless every scalar of `name` may be in a username and its white space is
    /// single U+0020 spaces between other characters.
    private static func checkCharacters(_ name: String) throws(CredentialValidationError) {
        if let scalar = name.unicodeScalars.first(where: isInvisible) {
            throw CredentialValidationError("a username may not contain control or invisible characters (\(code(scalar)))")
        }
        if let scalar = name.unicodeScalars.first(where: { $0.properties.isWhitespace && $0 != " " }) {
            throw CredentialValidationError("a username's only white space is the plain space, U+0020 (not \(code(scalar)))")
        }
        if name.first == " " || name.last == " " {
            throw CredentialValidationError("a username may not begin or end with a space")
        }
        if name.contains("  ") {
            throw CredentialValidationError("a username may not hold two spaces in a row")
        }
    }

    /// True for the scalars no username may hold, each either invisible or drawn as nothing
    /// or anything: controls (Cc), formats (Cf: U+200B, U+202E, U+FEFF, tags), line and
    /// paragraph separators, surrogates, private-use and unassigned code points,
    /// noncharacters, Unicode's default-ignorable code points (U+034F, the Hangul fillers
    /// U+115F, U+1160, U+3164, U+FFA0, variation selectors U+FE00–U+FE0F and
    /// U+E0100–U+E01EF), the blank Braille pattern U+2800, and U+FFFC and U+FFFD.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
            return true
        default:
            return properties.isDefaultIgnorableCodePoint || properties.isNoncharacterCodePoint
                || scalar == "\u{2800}" || scalar == "\u{FFFC}" || scalar == "\u{FFFD}"
        }
    }

    private static func code(_ scalar: Unicode.Scalar) -> String {
        "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
    }

    private static func text(utf8 bytes: some Collection<UInt8>, what: String) throws(CredentialValidationError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CredentialValidationError("a \(what) must be valid UTF-8")
        }
        return text
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
