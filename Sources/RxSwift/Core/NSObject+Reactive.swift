// Weakly linked, as OperationQueueScheduler's: the conformance alone does not make a program
// that never touches NSObject load Foundation.
@_weakLinked import Foundation

/// Every `NSObject` has reactive extensions, as in RxSwift.
extension NSObject: ReactiveCompatible {}
