/// The integer types that `interval` and `timer` can count with (RxSwift's name for them).
public typealias RxAbstractInteger = FixedWidthInteger
