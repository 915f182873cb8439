import RxCocoa
import RxSwift

/// The profile the user fills in after signing up: every input a value of its own type, so
/// the page sends numbers, choices, optionals, structs and lists, not only text.
public final class ProfileViewModel {
    public enum Plan: String, Codable, Sendable {
        case free, pro
    }

    public enum Contact: Codable, Equatable, Sendable {
        case none
        case email(String)
        case phone(country: Int, number: String)
    }

    public struct Address: Codable, Equatable, Sendable {
        public var city: String
        public var zip: String?
    }

    /// What the profile says about itself, shown as a summary card.
    public struct Summary: Encodable, Equatable, Sendable {
        public let age: Int
        public let plan: Plan
        public let contact: Contact
        public let city: String?
        public let tags: [String]
    }

    public struct Input {
        public let age: Observable<Int>
        public let nickname: Observable<String?>
        public let plan: Observable<Plan>
        public let contact: Observable<Contact>
        public let address: Observable<Address?>
        public let tags: Observable<[String]>
        public let save: Observable<Void>

        public init(age: Observable<Int>, nickname: Observable<String?>, plan: Observable<Plan>, contact: Observable<Contact>,
                    address: Observable<Address?>, tags: Observable<[String]>, save: Observable<Void>) {
            self.age = age
            self.nickname = nickname
            self.plan = plan
            self.contact = contact
            self.address = address
            self.tags = tags
            self.save = save
        }
    }

    public let ageValidation: Driver<ValidationResult>
    public let greeting: Driver<String>
    public let summary: Signal<Summary>
    public let tagCount: Driver<Int>

    public init(input: Input) {
        ageValidation = input.age
            .map { $0 >= 18 ? .ok(message: "Age accepted") : .failed(message: "You must be 18 or older") }
            .asDriver(onErrorJustReturn: .failed(message: "Age unknown"))
        greeting = input.nickname
            .map { nickname in nickname.map { "Hello, \($0)!" } ?? "Hello!" }
            .asDriver(onErrorJustReturn: "Hello!")
        tagCount = input.tags.map(\.count).asDriver(onErrorJustReturn: 0)
        let profile = Observable.combineLatest(input.age, input.plan, input.contact, input.address.startWith(nil), input.tags)
        summary = input.save
            .withLatestFrom(profile)
            .map { Summary(age: $0.0, plan: $0.1, contact: $0.2, city: $0.3?.city, tags: $0.4) }
            .asSignal(onErrorSignalWith: .empty())
    }
}
