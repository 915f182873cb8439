import CArgon2

/// Why a password could not be hashed (argon2's own message).
public struct PasswordHashingError: Error, CustomStringConvertible {
    /// libargon2's message.
    public let description: String
}

/// Hashes and verifies passwords with argon2id (Debian's libargon2), each hash with its
/// own random salt and with its parameters kept in the PHC string
/// (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`) that libargon2 writes and reads.
///
/// Thread-safe and blocking: a hash takes tens of milliseconds by design, so callers run
/// it on a `WorkerPool`, never on an event loop.
public struct PasswordHasher: Sendable {
    /// The parameters new hashes get.
    public let parameters: Argon2Parameters
    static let saltLength = 16
    static let hashLength = 32
    /// A hash of a random password with `parameters`: verifying against it costs what
    /// verifying a real account's hash costs, so an unknown user takes as long as a wrong
    /// password.
    private let dummyHash: String

    /// A hasher for `parameters`; computes the dummy hash once (one full hash).
    public init(parameters: Argon2Parameters = .recommended) throws {
        self.parameters = parameters
        var randomPassword = [UInt8](repeating: 0, count: 32)
        var generator = SystemRandomNumberGenerator()
        for index in randomPassword.indices { randomPassword[index] = generator.next() }
        dummyHash = try Self.hash(bytes: randomPassword, parameters: parameters)
    }

    /// The parameters of the unknown-account path's hash (the same as `parameters`).
    var dummyHashParameters: Argon2Parameters? { Self.parameters(of: dummyHash) }

    /// A new PHC string for `password` with a fresh random salt.
    public func hash(_ password: String) throws -> String {
        try Self.hash(bytes: Array(password.utf8), parameters: parameters)
    }

    /// Whether `password` matches `encoded` (argon2's own constant-time comparison). A
    /// string that is not an argon2id hash never matches.
    public func verify(_ password: String, against encoded: String) -> Bool {
        guard Self.parameters(of: encoded) != nil else { return false }
        let bytes = Array(password.utf8)
        return bytes.withUnsafeBytes { raw in
            argon2_verify(encoded, raw.baseAddress, raw.count, Argon2_id)
        } == ARGON2_OK.rawValue
    }

    /// Spends the time a wrong password against a real account would, and answers `false`:
    /// the path of an unknown username.
    public func verifyUnknownAccount(_ password: String) -> Bool {
        _ = verify(password, against: dummyHash)
        return false
    }

    /// Whether `encoded` was made with other parameters than `parameters` (and should be
    /// replaced after the next successful login).
    public func needsRehash(_ encoded: String) -> Bool {
        Self.parameters(of: encoded) != parameters
    }

    /// The parameters stored in an argon2id (version 19) PHC string, `nil` for anything else.
    public static func parameters(of encoded: String) -> Argon2Parameters? {
        let fields = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0].isEmpty, fields[1] == "argon2id", fields[2] == "v=19" else { return nil }
        return Argon2Parameters(phcField: fields[3])
    }

    private static func hash(bytes: [UInt8], parameters: Argon2Parameters) throws -> String {
        var salt = [UInt8](repeating: 0, count: saltLength)
        var generator = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = generator.next() }
        let length = argon2_encodedlen(parameters.iterations, parameters.memoryKiB, parameters.parallelism,
                                       UInt32(saltLength), UInt32(hashLength), Argon2_id)
        var encoded = [CChar](repeating: 0, count: length)
        let status = bytes.withUnsafeBytes { password in
            argon2id_hash_encoded(parameters.iterations, parameters.memoryKiB, parameters.parallelism,
                                  password.baseAddress, password.count, salt, salt.count,
                                  hashLength, &encoded, length)
        }
        guard status == ARGON2_OK.rawValue else {
            throw PasswordHashingError(description: String(cString: argon2_error_message(status)))
        }
        return String(decoding: encoded.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
