import COpenSSL
import Foundation
import NetworkTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TLS client for tests: OpenSSL straight on a `BlockingClient`'s socket, verifying
/// the server's certificate against a CA file and its name against `localhost`.
final class BlockingTLSClient: TestByteStream {
    struct Failure: Error, CustomStringConvertible { let description: String }

    let socket: BlockingClient
    private let context: OpaquePointer
    private let ssl: OpaquePointer
    var pending: [UInt8] = []

    /// Connects and completes the handshake; throws when it fails.
    /// `suites` limits TLS 1.3's cipher suites (OpenSSL's names, colon-separated); `resuming`
    /// offers a session of an earlier connection (`session`).
    init(port: Int, trusting authority: String, versions: ClosedRange<Int32> = TLS1_2_VERSION...TLS1_3_VERSION,
         alpn: [String] = ["http/1.1"], suites: String? = nil, resuming: OpaquePointer? = nil) throws {
        socket = try BlockingClient(port: port)
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw Failure(description: "SSL_CTX_new") }
        self.context = context
        // Writing to a socket the server closed must fail, not kill the test process.
        signal(SIGPIPE, SIG_IGN)
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        _ = SSL_CTX_load_verify_locations(context, authority, nil)
        _ = rxlive_SSL_CTX_set_min_proto_version(context, versions.lowerBound)
        _ = rxlive_SSL_CTX_set_max_proto_version(context, versions.upperBound)
        // Old versions need the lowest security level to be offered at all.
        if versions.lowerBound < TLS1_2_VERSION { _ = SSL_CTX_set_cipher_list(context, "DEFAULT:@SECLEVEL=0") }
        if let suites { _ = SSL_CTX_set_ciphersuites(context, suites) }
        var wire: [UInt8] = []
        for name in alpn { wire += [UInt8(name.utf8.count)] + Array(name.utf8) }
        if !wire.isEmpty { _ = SSL_CTX_set_alpn_protos(context, wire, UInt32(wire.count)) }
        // After the context's settings: SSL_new copies them.
        guard let ssl = SSL_new(context) else {
            SSL_CTX_free(context)
            throw Failure(description: "SSL_new")
        }
        self.ssl = ssl
        _ = SSL_set1_host(ssl, "localhost")
        _ = SSL_set_fd(ssl, socket.fd)
        if let resuming { _ = SSL_set_session(ssl, resuming) }
        let result = SSL_connect(ssl)
        guard result == 1 else { throw Failure(description: "handshake failed: \(Self.errors())") }
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
    }

    private static func errors() -> String {
        var lines: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            lines.append(ERR_reason_error_string(code).map { String(cString: $0) } ?? "\(code)")
        }
        return lines.joined(separator: "; ")
    }

    /// "TLSv1.3", "TLSv1.2", ...
    var protocolVersion: String { String(cString: SSL_get_version(ssl)) }

    /// The TLS 1.3 cipher suite ("TLS_AES_128_GCM_SHA256", ...).
    var cipherSuite: String { String(cString: SSL_CIPHER_get_name(SSL_get_current_cipher(ssl))) }

    /// A session to resume with (the caller frees it with SSL_SESSION_free); nil before the
    /// server's tickets were read.
    var session: OpaquePointer? { SSL_get1_session(ssl) }

    /// Whether the handshake resumed an earlier session.
    var resumed: Bool { SSL_session_reused(ssl) == 1 }

    /// Asks for a TLS 1.3 KeyUpdate that the server must answer; sent before the next write.
    func updateKeys() -> Bool { SSL_key_update(ssl, SSL_KEY_UPDATE_REQUESTED) == 1 }

    /// The ALPN protocol the server chose, if any.
    var negotiatedProtocol: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// The subject line of the server's certificate ("/CN=...").
    var peerSubject: String {
        guard let certificate = SSL_get1_peer_certificate(ssl) else { return "" }
        defer { X509_free(certificate) }
        guard let line = X509_NAME_oneline(X509_get_subject_name(certificate), nil, 0) else { return "" }
        defer { CRYPTO_free(line, #file, #line) }
        return String(cString: line)
    }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
    }

    func receiveSome(max: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: max)
        let count = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32(max)) }
        if count > 0 { return Array(buffer[0..<Int(count)]) }
        let error = SSL_get_error(ssl, count)
        ERR_clear_error()
        // A timeout; anything else (close_notify, EOF, a failure) ends the stream.
        return error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE ? nil : []
    }
}
