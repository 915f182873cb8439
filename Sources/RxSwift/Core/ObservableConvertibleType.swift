/// A type that can be converted to an observable sequence (`Observable<Element>`).
public protocol ObservableConvertibleType {
    /// Type of the elements of the sequence.
    associatedtype Element

    /// Converts `self` to an `Observable`.
    func asObservable() -> Observable<Element>
}
