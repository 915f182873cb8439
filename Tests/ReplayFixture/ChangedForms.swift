import RxLive
import RxLiveForms
import RxSwift
import ViewModels

/// `rxlive`'s forms as a later build might declare them: the sum adds one. A file of its
/// own, so an exported test can be compiled against it too (test_export_against_change.py).
enum ChangedForms {
    static func viewModels() -> [WireViewModel] {
        FormsCatalog.viewModels().filter { $0.name != "sum" } + [
            WireViewModel(
                name: "sum",
                transform: { input in SumViewModel.Output(sum: SumViewModel().transform(input: input).sum.map { $0 + 1 }) },
                input: { wire in
                    SumViewModel.Input(number1: wire.text("number1"), number2: wire.text("number2"), number3: wire.text("number3"))
                },
                outputs: [WireOutput("sum", \.sum)]),
        ]
    }
}
