import FuzzSupport
import HTTPServer

/// `CookieHeader`, the strict reading of the `Cookie` request header that a sign-in is found in.
///
/// Input: `Cookie` field values separated by newlines (HTTP/1.1 sends one; several are joined).
///
/// Invariants:
/// - a header over the size or pair limit names no cookie;
/// - every name read is a token and every value cookie-octets;
/// - the pairs written back as `name=value; …` parse to the same pairs;
/// - several fields read as a request's are the fields joined with "; ";
/// - `uniqueValue(of:)` is a name's value exactly when the name is there once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCookie(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let fields = input.rest().split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    guard let first = fields.first else { return 0 }

    let parsed = CookieHeader(parsing: first)
    if first.utf8.count > CookieHeader.maxBytes { invariant(parsed == nil, "a header over \(CookieHeader.maxBytes) bytes was read") }
    if let parsed {
        invariant(!parsed.pairs.isEmpty && parsed.pairs.count <= CookieHeader.maxPairs, "\(parsed.pairs.count) pairs")
        for pair in parsed.pairs {
            invariant(!pair.name.isEmpty && pair.name.utf8.allSatisfy(isTokenByte), "name \(pair.name.debugDescription)")
            invariant(pair.value.utf8.allSatisfy(isCookieOctet), "value \(pair.value.debugDescription)")
            let count = parsed.pairs.filter { $0.name == pair.name }.count
            invariant(parsed.uniqueValue(of: pair.name) == (count == 1 ? pair.value : nil), "uniqueValue of \(pair.name)")
        }
        let written = parsed.pairs.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
        invariant(CookieHeader(parsing: written) == parsed, "\(written.debugDescription) does not parse back to its pairs")
    }

    let head = HTTPRequestHead(method: "GET", target: "/", headers: fields.map { (name: "Cookie", value: $0) })
    invariant(CookieHeader(head) == CookieHeader(parsing: fields.joined(separator: "; ")),
              "several fields read differently from their join")
    return 0
}

private func isTokenByte(_ byte: UInt8) -> Bool {
    byte > 0x20 && byte < 0x7F && !"()<>@,;:\\\"/[]?={}".utf8.contains(byte)
}

private func isCookieOctet(_ byte: UInt8) -> Bool {
    byte == 0x21 || (0x23...0x2B).contains(byte) || (0x2D...0x3A).contains(byte) || (0x3C...0x5B).contains(byte)
        || (0x5D...0x7E).contains(byte)
}
