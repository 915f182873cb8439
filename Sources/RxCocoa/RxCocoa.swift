// Importing RxCocoa imports RxRelay too, as RxSwift's RxCocoa does: a view model that
// imports RxSwift and RxCocoa uses BehaviorRelay and PublishRelay without a third import.
@_exported import RxRelay
// And Foundation, as RxCocoa's umbrella header brings it on Apple platforms: RxSwift's
// example apps use NSRecursiveLock, CharacterSet and Date with only RxSwift and RxCocoa
// imported (Tests/RxExampleStyleTests compiles such files).
@_exported import Foundation
