/// The version `rxlive --version` prints.
enum RxLiveVersion {
    static let current = "0.1.0"
}
