import RxLive
import RxLiveForms

// `rxlive`: the login and sum forms of RxSwift's MVVM example, and the dashboard, served
// by the RxLive library.
var app = RxLiveApp(
    name: "rxlive",
    abstract: "Serve the RxLive page and its WebSocket form sessions (/ws/login, /ws/sum).",
    version: "0.1.0",
    accounts: true
) { context in
    var forms = FormsSettings(loginDelay: context.configuration.loginDelay)
    if let signingIn = context.signingIn {
        forms.loginService = { client in AccountLoginService(signingIn(client)) }
    }
    return FormsCatalog.viewModels(forms)
}
// `rxlive replay --rxtest` writes tests that find the forms as Tests/SessionsTests does.
app.rxtest = RxTestExport(imports: ["RxLiveForms"], declarations: "FormsCatalog.viewModels()")
app.main()
