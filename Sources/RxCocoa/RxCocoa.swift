// Importing RxCocoa imports RxRelay too, as RxSwift's RxCocoa does: a view model that
// imports RxSwift and RxCocoa uses BehaviorRelay and PublishRelay without a third import.
@_exported import RxRelay
