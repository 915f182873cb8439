import ArgumentParser
import FoundationEssentials
import Glibc
import ProcessSupport
import Sessions

/// `<app> replay FILE...`: replays recorded sessions (`--record`) against this build's
/// declarations of their view models, on virtual time with the recorded service answers, and
/// says for each file `same` or the first output that differs; exits 1 when any differs.
/// With `--rxtest`, writes each recording as an XCTest case on RxTest instead.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay recorded sessions against this build's view models: FILE: same, or the first output that differs (exit 1).")

    @Flag(help: "Write each recording as an XCTest case on RxTest (no server) instead of comparing")
    var rxtest = false

    @Option(help: ArgumentHelp("With --rxtest: write each case into this folder as <TypeName>.swift (default: standard output)",
                               valueName: "folder"))
    var output: String?

    @Option(name: .customLong("import"), help: ArgumentHelp("With --rxtest: a module the case imports (the one declaring the view model); repeatable",
                                                             valueName: "module"))
    var imports: [String] = []

    @Option(help: ArgumentHelp("With --rxtest: the Swift expression of the [WireViewModel] the view model is among",
                               valueName: "expression"))
    var declarations: String?

    @Argument(help: ArgumentHelp("Recordings (.rxlive.jsonl files)", valueName: "file"))
    var files: [String]

    func run() throws {
        let app = RxLiveApp.current
        // Declared as a server without accounts declares them: the recorded answers stand in for the services.
        let viewModels = app.viewModels(RxLiveContext(configuration: Configuration(), accounts: nil, signingIn: nil))
        var export = app.rxtest
        if !imports.isEmpty { export.imports = imports }
        if let declarations { export.declarations = declarations }
        var differs = false
        for file in files {
            let recording: RecordedSession
            do {
                recording = try RecordedSession(contentsOf: file)
            } catch {
                throw ValidationError("\(file): \(error)")
            }
            guard let viewModel = viewModels.first(where: { $0.name == recording.viewModel }) else {
                print("\(file): differs: this build declares no view model \"\(recording.viewModel)\"")
                differs = true
                continue
            }
            let outcome = SessionReplay.replay(recording, with: viewModel)
            if rxtest {
                try write(export.testCase(recording, outcome: outcome, source: URL(fileURLWithPath: file).lastPathComponent))
                if let difference = outcome.difference {
                    StandardError.write("\(file): note: the replay differs (\(difference)); the test expects what was recorded\n")
                }
                continue
            }
            if let difference = outcome.difference {
                print("\(file): differs: \(difference)")
                differs = true
            } else {
                print("\(file): same")
            }
        }
        if differs { throw ExitCode(1) }
    }

    /// Writes a test case to standard output, or into `output` named after its class.
    private func write(_ source: String) throws {
        guard let output else {
            print(source, terminator: "")
            return
        }
        let name = source.split(separator: "\n").first { $0.hasPrefix("final class ") }?
            .dropFirst("final class ".count).prefix { $0 != ":" } ?? "RecordedSessionTests"
        let path = "\(output)/\(name).swift"
        guard FileManager.default.createFile(atPath: path, contents: Data(source.utf8)) else {
            throw ValidationError("cannot write \(path)")
        }
        print(path)
    }
}
