import Calculator
import RxLive
import RxSwift

// The calculator on the web: each key a tap (the page's buttons) or a typed key (the `key`
// value input, for a terminal), the state one `scan` over them in CalculatorViewModel.
RxLiveApp(name: "calculator-server", abstract: "Serve the calculator (/ws/calculator).") { _ in
    [
        WireViewModel(
            name: "calculator",
            transform: { (commands: Observable<CalculatorCommand>) in CalculatorViewModel(commands: commands) },
            input: { wire in
                let digits = (0...9).map { digit in wire.tap("digit\(digit)").map { _ in CalculatorCommand.digit(digit) } }
                let keys: [Observable<CalculatorCommand>] = [
                    wire.tap("dot").map { _ in .dot }, wire.tap("changeSign").map { _ in .changeSign },
                    wire.tap("percent").map { _ in .percent }, wire.tap("add").map { _ in .operation(.add) },
                    wire.tap("subtract").map { _ in .operation(.subtract) }, wire.tap("multiply").map { _ in .operation(.multiply) },
                    wire.tap("divide").map { _ in .operation(.divide) }, wire.tap("equals").map { _ in .equals },
                    wire.tap("clear").map { _ in .clear },
                ]
                // A key typed as text ("7", "+", "="): a String on the wire, a command for the view model.
                let typed = wire.value("key", as: String.self) { key in try CalculatorCommand(key: key) }
                return Observable.merge(digits + keys + [typed])
            },
            outputs: [
                WireOutput("display", \.display),
                // CalculatorState is not Encodable: the wire gets what the page shows of it.
                WireOutput("state", \.state) { state in ["display": state.display, "pending": state.pendingDescription] },
            ]),
    ]
}.main()
