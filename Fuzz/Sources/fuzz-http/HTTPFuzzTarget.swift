@testable import HTTPServer
import FuzzSupport

/// The HTTP/1.1 request decoder and the Host/Origin policy.
///
/// Input: a limits byte, a split-pattern byte, then the bytes of a connection.
///
/// Invariants:
/// - the heads and failures do not depend on how the stream is split into reads;
/// - the decoder stops after a failure (nothing more comes out);
/// - a head's method is a token, its target and header values hold no CR, LF or NUL, its
///   `Content-Length` is within the limit, and it has at most the allowed header count;
/// - a Host the parser let through names a host (`HostPolicy.name`), lowercased; a policy
///   for that name accepts it, a policy for another name does not, the page's own origin is
///   allowed and an unrelated origin is not; the WebSocket upgrade check runs on every head.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let choice = input.byte()
    let split = input.byte()
    let stream = input.rest()
    let limits = choice & 1 == 0 ? HTTPRequestDecoder.Limits()
        : HTTPRequestDecoder.Limits(maxHeadSize: 64 + Int(choice >> 1), maxHeaderCount: Int(choice >> 5), maxBodySize: Int(choice >> 2))

    let whole = decode([stream[...]], limits: limits)
    let cut = decode(pieces(of: stream, sizes: [split & 0x0F, split >> 4, 1, 7]), limits: limits)
    invariant(whole == cut, "outputs depend on the split: \(whole) vs \(cut)")
    for (index, output) in whole.enumerated() {
        switch output {
        case .failure:
            invariant(index == whole.count - 1, "output after a failure")
        case .head(let head):
            check(head, limits: limits)
        }
    }
    return 0
}

func decode(_ pieces: [ArraySlice<UInt8>], limits: HTTPRequestDecoder.Limits) -> [HTTPRequestDecoder.Output] {
    var decoder = HTTPRequestDecoder(limits: limits)
    var outputs: [HTTPRequestDecoder.Output] = []
    for piece in pieces {
        piece.withUnsafeBytes { decoder.append($0) }
        while let output = decoder.next() { outputs.append(output) }
    }
    return outputs
}

func check(_ head: HTTPRequestHead, limits: HTTPRequestDecoder.Limits) {
    let forbidden: Set<UInt8> = [0x00, 0x0A, 0x0D]
    invariant(!head.method.isEmpty && head.method.utf8.allSatisfy(HTTPRequestParser.isTokenCharacter), "method \(head.method)")
    invariant(!head.target.utf8.contains(where: forbidden.contains), "a control byte in the target")
    invariant(head.headers.count <= limits.maxHeaderCount, "\(head.headers.count) headers")
    for (name, value) in head.headers {
        invariant(!name.isEmpty && name.utf8.allSatisfy(HTTPRequestParser.isTokenCharacter), "header name \(name)")
        invariant(!value.utf8.contains(where: forbidden.contains), "a control byte in a header value")
    }
    if case .contentLength(let length) = head.body {
        invariant(length >= 0 && length <= limits.maxBodySize, "a body of \(length) bytes")
    }

    guard let host = head.host, !host.isEmpty else { return }
    guard let name = HostPolicy.name(ofHostHeader: host) else {
        return invariant(false, "a head with the malformed host \(host.debugDescription)")
    }
    invariant(name == name.lowercased() && !name.isEmpty, "host name \(name)")
    let policy = HostPolicy(names: [name], scheme: "http", extraOrigins: [])
    invariant(policy.accepts(host: host), "the policy for \(name) refuses \(host.debugDescription)")
    invariant(!HostPolicy(names: ["other.invalid"], scheme: "http", extraOrigins: []).accepts(host: host) || name == "other.invalid",
              "a policy for another name accepts \(host.debugDescription)")
    invariant(HostPolicy(names: ["*"], scheme: "https", extraOrigins: []).accepts(host: host), "a policy for any host refuses")
    invariant(policy.allows(origin: "http://\(host)", host: host), "the page's own origin is refused")
    invariant(!policy.allows(origin: "http://evil.invalid", host: host) || host.lowercased() == "evil.invalid",
              "an unrelated origin is allowed")
    _ = WebSocketUpgrade.evaluate(head, hostPolicy: policy)
}
