import Foundation

/// A certificate authority and server certificates made for one test with the `openssl` command
/// in a temporary directory: P-256 keys, the leaf valid for localhost and 127.0.0.1, keys 0600.
final class TestCertificates {
    let directory: URL
    /// The CA certificate clients trust.
    var authority: String { directory.appendingPathComponent("ca.pem").path }

    struct Failure: Error, CustomStringConvertible { let description: String }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rxlive-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                     "-keyout", path("ca.key"), "-out", authority, "-days", "2", "-subj", "/CN=RxLive Test CA",
                     "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"])
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Issues a server certificate whose subject CN is `commonName` into `<name>.pem` and
    /// `<name>.key` (mode 0600); returns (certificate, key) paths.
    @discardableResult
    func issue(_ name: String, commonName: String) throws -> (certificate: String, key: String) {
        let certificate = path("\(name).pem"), key = path("\(name).key")
        try openssl(["req", "-x509", "-CA", authority, "-CAkey", path("ca.key"), "-newkey", "ec",
                     "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key, "-out", certificate,
                     "-days", "2", "-subj", "/CN=\(commonName)",
                     "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-addext", "extendedKeyUsage=serverAuth",
                     "-addext", "basicConstraints=critical,CA:FALSE"])
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
        return (certificate, key)
    }

    private func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "openssl \(arguments[0]) failed: \(String(decoding: message, as: UTF8.self))")
        }
    }
}
