import Synchronization

/// The server's current TLS context, shared by every loop of the process and replaced as a
/// whole by `reload()` (SIGHUP): new connections get the new certificate, connections already
/// open keep the context they started with.
public final class ReloadableTLSContext: Sendable {
    private let current: Mutex<TLSContext>
    /// The PEM file of the certificate chain.
    public let certificatePath: String
    /// The PEM file of the private key.
    public let keyPath: String

    /// Loads the certificate and key (see `TLSContext.init`).
    public init(certificatePath: String, keyPath: String) throws {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        current = Mutex(try TLSContext(certificatePath: certificatePath, keyPath: keyPath))
    }

    /// The context new connections use.
    public var context: TLSContext { current.withLock { $0 } }

    /// Loads both files again and swaps the context in one step.
    /// - Throws: `TLSError` when the new files cannot be used; the previous context stays.
    public func reload() throws {
        let fresh = try TLSContext(certificatePath: certificatePath, keyPath: keyPath)
        current.withLock { $0 = fresh }
    }
}
