import RxSwift
import RxCocoa

/// What the calculator holds between keys. Deliberately not `Encodable`, as a model type
/// from another module would not be: the server sends parts of it through mappings.
public struct CalculatorState: Equatable, Sendable {
    /// The operand and operator waiting for the number being entered.
    public struct Pending: Equatable, Sendable {
        public let operand: Double
        public let operation: Operator
    }

    /// What the display shows: the number being entered, or the last result.
    public private(set) var display: String
    /// The operation waiting for its right operand, if any.
    public private(set) var pending: Pending?
    /// Whether the next digit starts a new number (after an operator, `=` or `%`).
    private var startsNewNumber: Bool

    /// A cleared calculator: `0`, nothing pending.
    public static let cleared = CalculatorState(display: "0", pending: nil, startsNewNumber: true)

    /// The most digits a number being entered may have.
    static let maximumDigits = 15

    /// The pending operation as a person writes it (`"12 ×"`), empty when there is none.
    public var pendingDescription: String {
        pending.map { "\(Self.format($0.operand)) \($0.operation.sign)" } ?? ""
    }

    /// The state after `command`: the reducer the view model's `scan` runs.
    public func reduce(_ command: CalculatorCommand) -> CalculatorState {
        var next = self
        switch command {
        case .clear:
            return .cleared
        case .digit(let digit):
            if startsNewNumber || display == "0" || display == "Error" {
                next.display = String(digit)
            } else if display.filter(\.isNumber).count < Self.maximumDigits {
                next.display += String(digit)
            }
            next.startsNewNumber = false
        case .dot:
            if startsNewNumber || display == "Error" {
                next.display = "0."
            } else if !display.contains(".") {
                next.display += "."
            }
            next.startsNewNumber = false
        case .changeSign:
            if display.hasPrefix("-") {
                next.display.removeFirst()
            } else if value != 0 {
                next.display = "-" + display
            }
        case .percent:
            next.display = Self.format(value / 100)
            next.startsNewNumber = true
        case .operation(let operation):
            // A second operator after a number runs the first: 1 + 2 × shows 3.
            let operand = pending.map { startsNewNumber ? value : $0.operation.apply($0.operand, value) } ?? value
            next.display = Self.format(operand)
            next.pending = Pending(operand: operand, operation: operation)
            next.startsNewNumber = true
        case .equals:
            guard let pending else { return self }
            next.display = Self.format(pending.operation.apply(pending.operand, value))
            next.pending = nil
            next.startsNewNumber = true
        }
        return next
    }

    /// The display's number (0 for `Error`).
    private var value: Double {
        Double(display) ?? 0
    }

    /// A result as the display shows it: integers without a fraction, at most 12 significant
    /// digits, `Error` for a division by zero. `String(format:)` is Foundation's, which
    /// `import RxCocoa` brings.
    static func format(_ number: Double) -> String {
        guard number.isFinite else { return "Error" }
        let text = String(format: "%.12g", number)
        return text == "-0" ? "0" : text
    }
}
