import RxSwift
import RxCocoa

/// The calculator's view model, in the style of RxSwift's example apps: every key a command,
/// merged into one stream, folded into the state by `scan`, the display a Driver of it.
public final class CalculatorViewModel {
    /// The state after each key, starting cleared.
    public let state: Driver<CalculatorState>
    /// What the display shows, once per change.
    public let display: Driver<String>

    /// - Parameter commands: the keys pressed, in order.
    public init(commands: Observable<CalculatorCommand>) {
        state = commands
            .scan(CalculatorState.cleared) { state, command in state.reduce(command) }
            .startWith(.cleared)
            .asDriver(onErrorJustReturn: .cleared)
        display = state.map(\.display).distinctUntilChanged()
    }
}
