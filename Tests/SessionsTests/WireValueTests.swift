import Foundation
import RxCocoa
import RxSwift
import XCTest
@testable import Sessions

/// Value inputs and outputs of every `Codable` kind through a real session: what the wire
/// accepts, what it refuses (and that a refusal changes nothing), and the JSON it writes.
final class WireValueTests: XCTestCase {
    enum Plan: String, Codable { case free, pro }
    enum Contact: Codable, Equatable {
        case none
        case email(String)
        case phone(country: Int, number: String)
    }
    struct Address: Codable, Equatable {
        var city: String
        var zip: String?
    }
    enum Validation: Encodable, Equatable {
        case valid
        case invalid(message: String)
    }
    struct Summary: Encodable {
        let age: Int
        let plan: Plan
        let tags: [String]
    }

    /// A profile form with one input of each kind, written as an RxSwift app writes a view model.
    struct ProfileViewModel {
        struct Input {
            let age: Observable<Int>
            let nickname: Observable<String?>
            let plan: Observable<Plan>
            let contact: Observable<Contact>
            let address: Observable<Address>
            let tags: Observable<[String]>
            let ratio: Observable<Double>
            let save: Observable<Void>
        }
        struct Output {
            let ageValidation: Driver<Validation>
            let summary: Signal<Summary>
            let contact: Infallible<Contact>
            let nickname: Observable<String?>
            let address: Observable<Address>
            let tagCount: Observable<Int>
            let ratio: Observable<Double>
        }
        func transform(input: Input) -> Output {
            let ageValidation = input.age
                .map { $0 >= 18 ? Validation.valid : .invalid(message: "must be 18 or older") }
                .asDriver(onErrorJustReturn: .valid)
            let summary = input.save
                .withLatestFrom(Observable.combineLatest(input.age, input.plan, input.tags))
                .map { Summary(age: $0.0, plan: $0.1, tags: $0.2) }
                .asSignal(onErrorSignalWith: .empty())
            return Output(
                ageValidation: ageValidation, summary: summary,
                contact: input.contact.asInfallible(onErrorJustReturn: .none),
                nickname: input.nickname, address: input.address,
                tagCount: input.tags.map(\.count), ratio: input.ratio)
        }
    }

    private var transport: FakeTransport!
    private var session: Session!

    override func setUp() {
        transport = FakeTransport()
        let profile = WireViewModel(
            name: "profile",
            transform: { ProfileViewModel().transform(input: $0) },
            input: { wire in
                ProfileViewModel.Input(
                    age: wire.value("age"), nickname: wire.value("nickname"), plan: wire.value("plan"),
                    contact: wire.value("contact"), address: wire.value("address"), tags: wire.value("tags"),
                    ratio: wire.value("ratio"), save: wire.tap("save"))
            },
            outputs: [
                WireOutput("ageValidation", \.ageValidation), WireOutput("summary", \.summary),
                WireOutput("contact", \.contact), WireOutput("nickname", \.nickname),
                WireOutput("address", \.address), WireOutput("tagCount", \.tagCount), WireOutput("ratio", \.ratio),
            ])
        session = openedSession(profile, on: transport)
    }

    override func tearDown() {
        session.close()
    }

    private func send(_ input: String, _ json: String) -> [String] {
        session.receive("{\"input\":\"\(input)\",\"value\":\(json)}")
        return transport.takeSent()
    }

    private func refusal(_ input: String, _ json: String) -> String? {
        let sent = send(input, json)
        XCTAssertEqual(sent.count, 1, "one answer to \(json)")
        guard let message = sent.first, message.hasPrefix("{\"error\":{\"code\":\"bad_value\"") else {
            XCTFail("\(json) was not refused as bad_value: \(sent)")
            return nil
        }
        return message
    }

    func testReadyListsValueInputsAsValue() {
        let ready = transport.takeSent().first ?? ""
        XCTAssertTrue(ready.contains(
            "\"inputs\":{\"age\":\"value\",\"nickname\":\"value\",\"plan\":\"value\",\"contact\":\"value\",\"address\":\"value\",\"tags\":\"value\",\"ratio\":\"value\",\"save\":\"tap\"}"),
            ready)
        XCTAssertTrue(ready.contains("\"outputs\":[\"ageValidation\",\"summary\",\"contact\",\"nickname\",\"address\",\"tagCount\",\"ratio\"]"), ready)
    }

    func testNumbersAndEnumsWithAssociatedValuesGoBothWays() {
        _ = transport.takeSent()
        XCTAssertEqual(send("age", "17"), [output("ageValidation", #"{"invalid":{"message":"must be 18 or older"}}"#)])
        XCTAssertEqual(send("age", "30"), [output("ageValidation", #"{"valid":{}}"#)])
        XCTAssertEqual(send("ratio", "0.25"), [output("ratio", "0.25")])
        XCTAssertEqual(send("contact", #"{"email":{"_0":"ada@example.com"}}"#), [output("contact", #"{"email":{"_0":"ada@example.com"}}"#)])
        XCTAssertEqual(send("contact", #"{"phone":{"country":44,"number":"20 7946 0000"}}"#),
                       [output("contact", #"{"phone":{"country":44,"number":"20 7946 0000"}}"#)])
        XCTAssertEqual(send("contact", #"{"none":{}}"#), [output("contact", #"{"none":{}}"#)])
    }

    func testOptionalsStructsAndArrays() {
        _ = transport.takeSent()
        XCTAssertEqual(send("nickname", "null"), [output("nickname", "null")])
        XCTAssertEqual(send("nickname", #""ada""#), [output("nickname", #""ada""#)])
        XCTAssertEqual(send("address", #"{"city":"Paris"}"#), [output("address", #"{"city":"Paris"}"#)])
        XCTAssertEqual(send("address", #"{"zip":"75001","city":"Paris"}"#), [output("address", #"{"city":"Paris","zip":"75001"}"#)])
        XCTAssertEqual(send("tags", #"["a","b/c"]"#), [output("tagCount", "2")])
    }

    func testATapEmitsAStructFromTheLatestValues() {
        _ = transport.takeSent()
        _ = send("age", "40")
        XCTAssertEqual(send("plan", #""pro""#), [])
        XCTAssertEqual(send("tags", "[]"), [output("tagCount", "0")])
        session.receive(tapMessage("save"))
        XCTAssertEqual(transport.takeSent(), [output("summary", #"{"age":40,"plan":"pro","tags":[]}"#)])
    }

    func testAValueThatDoesNotDecodeIsRefusedNamingTheInputAndTypeAndChangesNothing() {
        _ = transport.takeSent()
        _ = send("age", "20")
        let wrongType = refusal("age", #""twenty""#)
        XCTAssertTrue(wrongType?.contains(#"\"age\" expects Int"#) ?? false, wrongType ?? "")
        XCTAssertNotNil(refusal("age", "20.5"))
        XCTAssertNotNil(refusal("age", "null"))
        XCTAssertNotNil(refusal("age", "99999999999999999999999"))
        let unknownCase = refusal("plan", #""gold""#)
        XCTAssertTrue(unknownCase?.contains("expects Plan") ?? false, unknownCase ?? "")
        let missingKey = refusal("address", #"{"zip":"1"}"#)
        XCTAssertTrue(missingKey?.contains(#"missing key \"city\""#) ?? false, missingKey ?? "")
        let nested = refusal("contact", #"{"phone":{"country":"44","number":"1"}}"#)
        XCTAssertTrue(nested?.contains("at phone.country") ?? false, nested ?? "")
        XCTAssertNotNil(refusal("tags", #"["a",1]"#))
        let missing = send("age", "")
        XCTAssertTrue(missing.first?.hasPrefix("{\"error\":{\"code\":\"bad_json\"") ?? false, "\(missing)")
        session.receive(#"{"input":"age"}"#)
        XCTAssertTrue(transport.takeSent().first?.contains(#"\"age\" needs a \"value\""#) ?? false)
        // Nothing refused reached the view model: the last age is still 20.
        _ = send("plan", #""free""#)
        _ = send("tags", #"["x"]"#)
        session.receive(tapMessage("save"))
        XCTAssertEqual(transport.takeSent(), [output("summary", #"{"age":20,"plan":"free","tags":["x"]}"#)])
    }

    func testTypesAreNamedAsSwiftCodeWritesThem() {
        XCTAssertEqual(WireJSON.typeName(Int.self), "Int")
        XCTAssertEqual(WireJSON.typeName(String?.self), "String?")
        XCTAssertEqual(WireJSON.typeName([String].self), "[String]")
        XCTAssertEqual(WireJSON.typeName(Address?.self), "Address?")
    }

    func testATextInputStillRefusesNonStringsAndATapRefusesValues() {
        _ = transport.takeSent()
        XCTAssertNotNil(refusal("save", "1"))
    }
}
