import Dispatch
import RxSwift

/// The page's welcome for a signed-in user: a greeting by name, how long this session has
/// been signed in (a timer, so a sign-out visibly ends a graph that would otherwise tick on),
/// and a wave button that counts its taps. Only a signed-in session has a user to greet,
/// so it is served to signed-in sessions only.
public struct WelcomeViewModel: ViewModelType {
    /// The wave button.
    public struct Input {
        public let wave: Observable<Void>

        /// Creates the input.
        public init(wave: Observable<Void>) {
            self.wave = wave
        }
    }

    /// What the welcome card shows.
    public struct Output {
        /// "Welcome, <name>".
        public let greeting: Observable<String>
        /// Whole seconds since the session opened: 0 at once, then one more each second.
        public let signedInFor: Observable<Int>
        /// Waves so far: 0 at once, then one more per tap.
        public let waves: Observable<Int>

        /// Creates the output.
        public init(greeting: Observable<String>, signedInFor: Observable<Int>, waves: Observable<Int>) {
            self.greeting = greeting
            self.signedInFor = signedInFor
            self.waves = waves
        }
    }

    private let user: String
    private let scheduler: any SchedulerType

    /// The welcome of `user`, its clock on `scheduler` (the session's loop, or a test's).
    public init(user: String, scheduler: any SchedulerType = MainScheduler.instance) {
        self.user = user
        self.scheduler = scheduler
    }

    public func transform(input: Input) -> Output {
        let seconds = Observable<Int>.interval(.seconds(1), scheduler: scheduler).map { $0 + 1 }.startWith(0)
        let waves = input.wave.scan(0) { count, _ in count + 1 }.startWith(0)
        return Output(greeting: .just("Welcome, \(user)"), signedInFor: seconds, waves: waves)
    }
}
