import XCTest
@_spi(Protocol) @testable import Sessions

/// Inputs the client-message fuzz target (Fuzz/Sources/fuzz-client-message) found, fed through
/// the same path: the reader, then the value decoding a value input does.
final class ClientMessageFuzzFindingsTests: XCTestCase {
    /// A number beyond Double's range is valid JSON (RFC 8259, Python's json), but
    /// Foundation's JSONSerialization refuses it: the reader keeps its text, and decoding it
    /// as a number fails (`bad_value`) instead of reading infinity.
    func testANumberBeyondDoubleIsKeptAsTextAndRefusedWhenDecoded() throws {
        let message = try ClientMessageReader.read(#"{"input":"","value":-1.0E412}"#).get()
        XCTAssertEqual(message, ClientMessage(input: "", value: .json("-1.0E412")))
        XCTAssertThrowsError(try WireJSON.decode(Double.self, from: message.value))
    }
}
