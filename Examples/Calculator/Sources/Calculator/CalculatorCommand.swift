import RxSwift
import RxCocoa

/// An arithmetic operator of the calculator's keys.
public enum Operator: Equatable, Sendable {
    case add, subtract, multiply, divide

    /// `left` and `right` combined by this operator.
    func apply(_ left: Double, _ right: Double) -> Double {
        switch self {
        case .add: left + right
        case .subtract: left - right
        case .multiply: left * right
        case .divide: left / right
        }
    }

    /// The key's sign, as the display shows it.
    var sign: String {
        switch self {
        case .add: "+"
        case .subtract: "−"
        case .multiply: "×"
        case .divide: "÷"
        }
    }
}

/// One key pressed: what the reducer folds into the state.
public enum CalculatorCommand: Equatable, Sendable {
    case clear
    case digit(Int)
    case dot
    case changeSign
    case percent
    case operation(Operator)
    case equals

    /// A key typed as text (`"7"`, `"."`, `"+"`, `"-"`, `"*"`, `"/"`, `"="`, `"C"`, `"±"`,
    /// `"%"`), as a terminal sends it; anything else throws `UnknownKey`.
    public init(key: String) throws {
        switch key {
        case "C", "c": self = .clear
        case ".": self = .dot
        case "±": self = .changeSign
        case "%": self = .percent
        case "+": self = .operation(.add)
        case "-": self = .operation(.subtract)
        case "*": self = .operation(.multiply)
        case "/": self = .operation(.divide)
        case "=": self = .equals
        default:
            guard key.count == 1, let digit = Int(key) else { throw UnknownKey(key: key) }
            self = .digit(digit)
        }
    }

    /// A key the calculator does not have.
    public struct UnknownKey: Error, CustomStringConvertible {
        public let key: String
        public var description: String { "no key \"\(key.prefix(8))\": use 0-9 . + - * / = C ± %" }
    }
}
