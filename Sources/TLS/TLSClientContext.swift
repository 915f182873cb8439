import COpenSSL

/// A client context for tools that speak TLS to the server (the benchmark client): TLS 1.2
/// and 1.3, ALPN `http/1.1`, and the server's certificate verified against a CA file.
// @unchecked Sendable: the SSL_CTX is only read after init, and OpenSSL locks its reference count.
public final class TLSClientContext: @unchecked Sendable {
    private let pointer: OpaquePointer

    /// A context that trusts the certificates in the PEM file `authority`.
    /// - Throws: `TLSError` when the file cannot be used.
    public init(trusting authority: String) throws {
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw TLSError.openSSL("cannot create a TLS context") }
        let alpn: [UInt8] = [8] + Array("http/1.1".utf8)
        guard rxlive_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION) == 1,
              SSL_CTX_load_verify_locations(context, authority, nil) == 1,
              SSL_CTX_set_alpn_protos(context, alpn, UInt32(alpn.count)) == 0 // 0 is success here
        else {
            SSL_CTX_free(context)
            throw TLSError.openSSL("cannot use the CA file \(authority)")
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        pointer = context
    }

    deinit { SSL_CTX_free(pointer) }

    /// A client session; call `startHandshake()` once connected.
    public func makeSession() throws -> TLSSession { try TLSSession(context: pointer, isServer: false) }
}
