/// The common superclass of the disposables that own other disposables (`DisposeBag`,
/// `CompositeDisposable`, `SerialDisposable`, `SingleAssignmentDisposable`,
/// `RefCountDisposable`), as in RxSwift, so code that names the type keeps compiling. It adds
/// no behaviour; only this module makes subclasses.
public class DisposeBase {
    init() {}
}
