import RxCocoa
import RxLive
import RxSwift
import SignUp

// The sign-up form on the web: one declaration of the view model on the wire, served by
// RxLive with everything `rxlive` has (TLS, deflate, loops, health, metrics, dashboard, drain).
let service = InMemorySignUpService(users: ["admin", "ada"], latency: .milliseconds(300), scheduler: MainScheduler.instance)

RxLiveApp(name: "signup-server", abstract: "Serve the sign-up form (/ws/signup) and the profile form (/ws/profile).") { _ in
    [
        WireViewModel(
            name: "signup",
            transform: { (input: SignUpViewModel.Input) in SignUpViewModel(input: input, service: service) },
            input: { wire in
                SignUpViewModel.Input(
                    username: wire.text("username").asDriver(onErrorJustReturn: ""),
                    password: wire.text("password", secret: true).asDriver(onErrorJustReturn: ""),
                    repeatedPassword: wire.text("repeatedPassword", secret: true).asDriver(onErrorJustReturn: ""),
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
