import RxSwift
import RxTest
import XCTest

// The RxSwift MVVM login example's view-model code (RxSwift's Chinese documentation),
// unchanged but for the imports.

protocol ViewModelType {
    associatedtype Input
    associatedtype Output

    func transform(input: Input) -> Output
}

struct LoginViewModel: ViewModelType {
    struct Input {
        let username: Observable<String>
        let password: Observable<String>
        let loginTapped: Observable<Void>
    }

    struct Output {
        let isLoginButtonEnabled: Observable<Bool>
        let loginResult: Observable<Bool>
    }

    func transform(input: Input) -> Output {
        let credentialsValid = Observable.combineLatest(input.username, input.password) { username, password in
            return !username.isEmpty && !password.isEmpty
        }

        let isLoginButtonEnabled = credentialsValid

        let loginResult = input.loginTapped.withLatestFrom(credentialsValid)
            .flatMapLatest { valid -> Observable<Bool> in
                guard valid else { return Observable.just(false) }
                // 模拟登录请求
                return Observable.just(true).delay(.seconds(2), scheduler: MainScheduler.instance)
            }

        return Output(isLoginButtonEnabled: isLoginButtonEnabled, loginResult: loginResult)
    }
}

final class ExampleViewModelTests: RxTestCase {
    override func tearDown() {
        MainScheduler.resetHost()
        super.tearDown()
    }

    func testLoginViewModelEnablesButtonAndLogsInAfterTwoSeconds() {
        let scheduler = TestScheduler(initialClock: 0)
        MainScheduler.setHost(scheduler)

        let username = scheduler.createHotObservable([
            .next(210, ""),
            .next(220, "bob"),
            .next(260, ""),
            .next(270, "bob"),
        ])
        let password = scheduler.createHotObservable([
            .next(215, ""),
            .next(230, "secret"),
        ])
        let taps = scheduler.createHotObservable([
            .next(225, ()),   // credentials incomplete: fails at once
            .next(240, ()),   // valid: succeeds two seconds later
            .next(280, ()),   // valid, but superseded by the next tap...
            .next(281, ()),   // ...so only this one's result arrives
        ])

        let viewModel = LoginViewModel()
        let output = viewModel.transform(input: .init(
            username: username.asObservable(),
            password: password.asObservable(),
            loginTapped: taps.asObservable()
        ))

        let enabled = scheduler.createObserver(Bool.self)
        let results = scheduler.createObserver(Bool.self)
        let texts = scheduler.createObserver(String.self)
        let disposeBag = DisposeBag()
        scheduler.scheduleAt(200) {
            output.isLoginButtonEnabled.bind(to: enabled).disposed(by: disposeBag)
            output.loginResult.bind(to: results).disposed(by: disposeBag)
            // The example's LoginViewController maps results to the label's text.
            output.loginResult
                .map { $0 ? "Login Successful" : "Login Failed" }
                .bind(to: texts)
                .disposed(by: disposeBag)
        }
        scheduler.start()

        XCTAssertEqual(enabled.events, [
            .next(215, false),
            .next(220, false),
            .next(230, true),
            .next(260, false),
            .next(270, true),
        ])
        XCTAssertEqual(results.events, [
            .next(225, false),
            .next(242, true),
            .next(283, true),
        ])
        XCTAssertEqual(texts.events, [
            .next(225, "Login Failed"),
            .next(242, "Login Successful"),
            .next(283, "Login Successful"),
        ])
        XCTAssertEqual(taps.subscriptions.count, 2)
    }

    func testNumbersViewControllerCombineLatestPipeline() {
        // RxSwift's example app's NumbersViewController (RxExample's "Adding numbers") with subjects for the text
        // fields and an observer for the result label.
        let scheduler = TestScheduler(initialClock: 0)
        let number1 = BehaviorSubject(value: "1")
        let number2 = BehaviorSubject(value: "2")
        let number3 = BehaviorSubject(value: "3")
        let result = scheduler.createObserver(String.self)
        let disposeBag = DisposeBag()

        scheduler.scheduleAt(100) {
            Observable.combineLatest(number1, number2, number3) { textValue1, textValue2, textValue3 -> Int in
                    return (Int(textValue1) ?? 0) + (Int(textValue2) ?? 0) + (Int(textValue3) ?? 0)
                }
                .map { $0.description }
                .bind(to: result)
                .disposed(by: disposeBag)
        }
        scheduler.scheduleAt(200) { number1.onNext("10") }
        scheduler.scheduleAt(300) { number2.onNext("abc") }
        scheduler.scheduleAt(400) { number3.onNext("-3") }
        scheduler.start()

        XCTAssertEqual(result.events, [
            .next(100, "6"),
            .next(200, "15"),
            .next(300, "13"),
            .next(400, "7"),
        ])
    }
}
