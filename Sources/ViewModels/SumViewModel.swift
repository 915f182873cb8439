import RxSwift

/// RxSwift's example app's NumbersViewController (RxExample's "Adding numbers") as a view model: three text
/// fields, each read as `Int(text) ?? 0`, summed on every change once all three have
/// a value.
///
/// Overflow: the example adds `Int`s with `+`, which traps (crashes) when, say, every field
/// holds `Int.max`. Each field is still read exactly as the example reads it, but the sum is
/// taken in 128 bits, where three 64-bit values can never overflow: the answer is always
/// the exact sum, never a crash, a wrapped value or a refusal.
public struct SumViewModel: ViewModelType {
    /// The three fields (`rx.text.orEmpty`).
    public struct Input {
        public let number1: Observable<String>
        public let number2: Observable<String>
        public let number3: Observable<String>

        /// Creates the inputs.
        public init(number1: Observable<String>, number2: Observable<String>, number3: Observable<String>) {
            self.number1 = number1
            self.number2 = number2
            self.number3 = number3
        }
    }

    /// The sum.
    public struct Output {
        /// The exact sum of the three fields read as integers.
        public let sum: Observable<Int128>

        /// Creates the output.
        public init(sum: Observable<Int128>) {
            self.sum = sum
        }
    }

    /// Creates the view model.
    public init() {}

    /// The example's `combineLatest`, with the addition done in 128 bits.
    public func transform(input: Input) -> Output {
        let sum = Observable.combineLatest(input.number1, input.number2, input.number3) { textValue1, textValue2, textValue3 -> Int128 in
            return Int128(Int(textValue1) ?? 0) + Int128(Int(textValue2) ?? 0) + Int128(Int(textValue3) ?? 0)
        }
        return Output(sum: sum)
    }
}
