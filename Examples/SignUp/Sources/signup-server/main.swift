import RxCocoa
import RxLive
import RxSwift
import SignUp

// The sign-up form on the web: one declaration of the view model on the wire, served by
// RxLive with everything `rxlive` has (TLS, deflate, loops, health, metrics, dashboard, drain).
//
// Swift 6: top-level code is the main actor's, and the view models are declared in a
// @Sendable closure, so a service made here must be Sendable; this one is, without @unchecked.
let directory = InMemorySignUpService(users: ["admin", "ada"], latency: .milliseconds(300), scheduler: MainScheduler.instance)

RxLiveApp(name: "signup-server", abstract: "Serve the sign-up form (/ws/signup, and /ws/signup-observable with plain Observables) and the profile form (/ws/profile).") { _ in
    // Made here, once at start, after main() has bootstrapped swift-metrics: on /metrics.
    let service = CountedSignUpService(base: directory, accountsCreated: Counter(label: "signup_accounts_created_total"))
    return [
        WireViewModel(
            name: "signup",
            transform: { (input: SignUpViewModel.Input) in SignUpViewModel(input: input, service: service) },
            input: { wire in
                SignUpViewModel.Input(
                    username: wire.text("username", initial: "").asDriver(onErrorJustReturn: ""),
                    password: wire.text("password", secret: true, initial: "").asDriver(onErrorJustReturn: ""),
                    repeatedPassword: wire.text("repeatedPassword", secret: true, initial: "").asDriver(onErrorJustReturn: ""),
                    signUpTaps: wire.tap("signUp").asSignal(onErrorSignalWith: .empty()))
            },
            outputs: [
                WireOutput("validatedUsername", \.validatedUsername),
                WireOutput("validatedPassword", \.validatedPassword),
                WireOutput("validatedRepeatedPassword", \.validatedRepeatedPassword),
                WireOutput("signUpEnabled", \.signUpEnabled),
                WireOutput("checking", \.checking),
                WireOutput("signedUp", \.signedUp),
            ]),
        // The same form with plain Observables (no Drivers): the wire's inputs are Observables already.
        WireViewModel(
            name: "signup-observable",
            transform: { (input: ObservableSignUpViewModel.Input) in
                ObservableSignUpViewModel(input: input, service: service, scheduler: MainScheduler.instance)
            },
            input: { wire in
                ObservableSignUpViewModel.Input(
                    username: wire.text("username", initial: ""), password: wire.text("password", secret: true, initial: ""),
                    repeatedPassword: wire.text("repeatedPassword", secret: true, initial: ""), signUpTaps: wire.tap("signUp"))
            },
            outputs: [
                WireOutput("validatedUsername", \.validatedUsername), WireOutput("validatedPassword", \.validatedPassword),
                WireOutput("validatedRepeatedPassword", \.validatedRepeatedPassword), WireOutput("signUpEnabled", \.signUpEnabled),
                WireOutput("checking", \.checking), WireOutput("signedUp", \.signedUp),
            ]),
        // The profile form: inputs of any Codable type, decoded from the message's JSON value.
        WireViewModel(
            name: "profile",
            transform: { (input: ProfileViewModel.Input) in ProfileViewModel(input: input) },
            input: { wire in
                ProfileViewModel.Input(
                    age: wire.value("age"), nickname: wire.value("nickname"), plan: wire.value("plan"),
                    contact: wire.value("contact"), address: wire.value("address"), tags: wire.value("tags"),
                    save: wire.tap("save"))
            },
            outputs: [
                WireOutput("ageValidation", \.ageValidation),
                WireOutput("greeting", \.greeting),
                WireOutput("tagCount", \.tagCount),
                WireOutput("summary", \.summary),
            ]),
    ]
}.main()

/// The sign-up service, counting the accounts it makes (`signup_accounts_created_total`).
struct CountedSignUpService: SignUpService, Sendable {
    let base: InMemorySignUpService<MainScheduler>
    let accountsCreated: Counter

    func usernameAvailable(_ username: String) -> Single<Bool> {
        base.usernameAvailable(username)
    }

    func signUp(_ username: String, password: String) -> Single<Bool> {
        base.signUp(username, password: password).do(onSuccess: { [accountsCreated] created in
            if created { accountsCreated.increment() }
        })
    }
}
