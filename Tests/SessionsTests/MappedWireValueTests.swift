import Foundation
import RxSwift
import XCTest
@testable import Sessions

/// Outputs and inputs of types that are not `Codable` (as a type of another module is to the
/// app), sent through a mapping closure and taken through a decoding one, in a real session.
final class MappedWireValueTests: XCTestCase {
    /// Stands for a type declared in someone else's module: neither Encodable nor Decodable.
    enum Verdict: Equatable {
        case accepted
        case rejected(String)
    }
    /// Also not Decodable: made from a string by a failable rule of the app's.
    struct Grade: Equatable {
        let letter: Character
        struct Invalid: Error, CustomStringConvertible {
            let text: String
            var description: String { "no grade \(text)" }
        }
        init(parsing text: String) throws {
            guard text.count == 1, let letter = text.first, "ABCDEF".contains(letter) else { throw Invalid(text: text) }
            self.letter = letter
        }
    }
    struct Plain: Encodable, Equatable {
        let grade: String
    }
    struct Output {
        let verdict: Observable<Verdict>
        let plain: Observable<Plain>
    }

    private var transport: FakeTransport!
    private var session: Session!

    override func setUp() {
        transport = FakeTransport()
        let wire = WireViewModel(
            name: "grading",
            transform: { (grade: Observable<Grade>) in
                Output(verdict: grade.map { $0.letter == "F" ? .rejected("failed") : .accepted },
                       plain: grade.map { Plain(grade: String($0.letter)) })
            },
            input: { wire in wire.value("grade", as: String.self) { try Grade(parsing: $0) } },
            outputs: [
                WireOutput("verdict", \.verdict) { verdict -> [String: String] in
                    switch verdict {
                    case .accepted: ["verdict": "accepted"]
                    case .rejected(let reason): ["verdict": "rejected", "reason": reason]
                    }
                },
                WireOutput("plain", \.plain),
            ])
        session = openedSession(wire, on: transport)
    }

    override func tearDown() {
        session.close()
    }

    func testReadyListsTheDecodedInputAsAValue() {
        let ready = transport.takeSent().first ?? ""
        XCTAssertTrue(ready.contains(#""inputs":{"grade":"value"}"#), ready)
    }

    func testAnOutputOfAForeignTypeIsWrittenAsItsMappedValueAndAnEncodableOneNeedsNoMapping() {
        _ = transport.takeSent()
        session.receive(textMessage("grade", "B"))
        XCTAssertEqual(transport.takeSent(), [output("verdict", #"{"verdict":"accepted"}"#), output("plain", #"{"grade":"B"}"#)])
        session.receive(textMessage("grade", "F"))
        XCTAssertEqual(transport.takeSent(), [output("verdict", #"{"reason":"failed","verdict":"rejected"}"#),
                                              output("plain", #"{"grade":"F"}"#)])
    }

    func testWhatTheDecodingClosureThrowsIsRefusedAsBadValueAndChangesNothing() {
        _ = transport.takeSent()
        session.receive(textMessage("grade", "Z"))
        let refusal = transport.takeSent()
        XCTAssertEqual(refusal.count, 1)
        XCTAssertTrue(refusal.first?.hasPrefix(#"{"error":{"code":"bad_value""#) ?? false, "\(refusal)")
        XCTAssertTrue(refusal.first?.contains("no grade Z") ?? false, "\(refusal)")
        session.receive(#"{"input":"grade","value":7}"#)
        let wrongType = transport.takeSent().first ?? ""
        XCTAssertTrue(wrongType.contains(#"\"grade\" expects String"#), wrongType)
        session.receive(textMessage("grade", "A"))
        XCTAssertEqual(transport.takeSent(), [output("verdict", #"{"verdict":"accepted"}"#), output("plain", #"{"grade":"A"}"#)])
    }
}
