import FuzzSupport
import WebSocket

/// The `Sec-WebSocket-Extensions` parser and the permessage-deflate negotiation.
///
/// Input: header values separated by newlines (a request may repeat the header).
///
/// Invariants:
/// - parsing the values one by one gives the elements of parsing them together;
/// - every element parsed, written back as `name; param=value`, parses to itself, and its
///   names and values are lowercased tokens (values tokens);
/// - the negotiated parameters are those of the first acceptable offer, with a server
///   window of 9–15 bits, and the response header parses back (as an offer would) to the
///   same settings.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDeflateOffer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let values = input.rest().split(separator: 0x0A, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }

    let elements = WebSocketExtensionHeader.parse(values)
    let oneByOne = values.flatMap { WebSocketExtensionHeader.parse([$0]) }
    invariant(elements == oneByOne, "values parsed together differ from one by one")
    for case let element? in elements {
        invariant(isLowercasedToken(element.name), "extension name \(element.name)")
        var written = element.name
        for parameter in element.parameters {
            invariant(isLowercasedToken(parameter.name), "parameter name \(parameter.name)")
            written += "; \(parameter.name)"
            if let value = parameter.value {
                invariant(isToken(value), "parameter value \(value)")
                written += "=\(value)"
            }
        }
        invariant(WebSocketExtensionHeader.parse([written]) == [element], "\(written) does not parse back to its element")
    }

    let offers = PerMessageDeflateOffer.offers(in: values)
    let negotiated = PerMessageDeflateOffer.negotiate(values)
    invariant(negotiated == offers.lazy.compactMap { $0.accept() }.first, "negotiation is not the first acceptable offer")
    if let negotiated {
        invariant((9...15).contains(negotiated.serverWindowBits), "server window of \(negotiated.serverWindowBits) bits")
        let response = WebSocketExtensionHeader.parse([negotiated.responseHeaderValue])
        guard response.count == 1, let element = response[0], let answer = PerMessageDeflateOffer(element) else {
            return invariantFailed("the response \(negotiated.responseHeaderValue) does not parse")
        }
        invariant(answer.clientNoContextTakeover, "the response lets the client keep its context")
        invariant(answer.serverNoContextTakeover == negotiated.announcesServerNoContextTakeover, "server_no_context_takeover lost")
        invariant(answer.serverMaxWindowBits == (negotiated.announcesServerMaxWindowBits ? negotiated.serverWindowBits : nil),
                  "server_max_window_bits lost")
    }
    return 0
}

private func isToken(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !"()<>@,;:\\\"/[]?={}".utf8.contains($0) }
}

private func isLowercasedToken(_ text: String) -> Bool {
    isToken(text) && !text.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
}

private func invariantFailed(_ message: String) -> CInt {
    invariant(false, message)
    return 0
}
