import Foundation
import RxSwift

/// Every `NSObject` has reactive extensions, as in RxSwift. The conformance lives in RxCocoa,
/// which brings Foundation, so that RxSwift itself links only FoundationEssentials.
extension NSObject: ReactiveCompatible {}
