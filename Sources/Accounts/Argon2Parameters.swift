/// The cost of one argon2id hash. They are stored in each hash (PHC string format), so
/// they can be raised later: a hash made with other parameters is redone at the next
/// successful login.
public struct Argon2Parameters: Sendable, Equatable, CustomStringConvertible {
    /// Memory per hash, in KiB (argon2's `m`).
    public var memoryKiB: UInt32
    /// Passes over the memory (argon2's `t`).
    public var iterations: UInt32
    /// Lanes (argon2's `p`); the hash is computed on one thread whatever the lanes.
    public var parallelism: UInt32

    /// OWASP's recommended minimum for argon2id (19 MiB, 2 passes, 1 lane).
    public static let recommended = Argon2Parameters(memoryKiB: 19 * 1024, iterations: 2, parallelism: 1)

    /// Parameters with the given costs.
    public init(memoryKiB: UInt32, iterations: UInt32, parallelism: UInt32) {
        self.memoryKiB = memoryKiB
        self.iterations = iterations
        self.parallelism = parallelism
    }

    /// Reads `m=…,t=…,p=…` (the PHC string's parameter field, any order).
    public init?(phcField: Substring) {
        var memory: UInt32?, iterations: UInt32?, parallelism: UInt32?
        for pair in phcField.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let number = UInt32(parts[1]) else { return nil }
            switch parts[0] {
            case "m": memory = number
            case "t": iterations = number
            case "p": parallelism = number
            default: return nil
            }
        }
        guard let memory, let iterations, let parallelism else { return nil }
        self.init(memoryKiB: memory, iterations: iterations, parallelism: parallelism)
    }

    /// The PHC parameter field, `m=…,t=…,p=…`.
    public var description: String { "m=\(memoryKiB),t=\(iterations),p=\(parallelism)" }
}
