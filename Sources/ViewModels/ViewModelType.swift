import RxSwift

/// A view model in the shape of the RxSwift MVVM login example (RxSwift's Chinese documentation): a pure function from input streams to output
/// streams, run once per screen (here: once per session).
public protocol ViewModelType {
    /// The streams the view feeds in (text fields, taps).
    associatedtype Input
    /// The streams the view binds to.
    associatedtype Output

    /// Builds the output streams from the input streams.
    func transform(input: Input) -> Output
}
