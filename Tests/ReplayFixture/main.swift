import RxLive
import RxLiveForms
import RxSwift
import ViewModels

// A test fixture (Tests/EndToEnd/test_record_replay.py): `rxlive`'s forms as a later build
// might declare them, with the sum changed to add one. Replaying a recording of `rxlive` with
// this build's `replay` must name the first sum that differs.
RxLiveApp(name: "replay-fixture", abstract: "rxlive's forms with a changed sum, for the replay tests.") { _ in
    FormsCatalog.viewModels().filter { $0.name != "sum" } + [
        WireViewModel(
            name: "sum",
            transform: { input in SumViewModel.Output(sum: SumViewModel().transform(input: input).sum.map { $0 + 1 }) },
            input: { wire in
                SumViewModel.Input(number1: wire.text("number1"), number2: wire.text("number2"), number3: wire.text("number3"))
            },
            outputs: [WireOutput("sum", \.sum)]),
    ]
}.main()
