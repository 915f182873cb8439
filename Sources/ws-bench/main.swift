import Glibc

// ws-bench: a WebSocket load client for 127.0.0.1 (see BenchOptions.usage).
// Single-threaded: one event loop drives every connection; each mode ends by itself.

func runBench(_ arguments: [String]) -> Int32 {
    let options: BenchOptions
    do {
        options = try BenchOptions.parse(arguments)
    } catch {
        if case .usage(let message) = error, !message.isEmpty { print("ws-bench: \(message)") }
        print(BenchOptions.usage)
        return 2
    }
    signal(SIGPIPE, SIG_IGN)
    do {
        let loop = try BenchLoop()
        if options.mode == .codec {
            print(CodecMode.run(seconds: options.seconds, loop: loop))
            return 0
        }
        let run: BenchRun
        switch options.mode {
        case .echo: run = try EchoMode(options: options, loop: loop)
        case .sum: run = try SumMode(options: options, loop: loop)
        case .idle: run = try IdleMode(options: options, loop: loop)
        case .hold: run = try HoldMode(options: options, loop: loop)
        case .loginChurn: run = try LoginChurnMode(options: options, loop: loop)
        case .codec: return 0
        }
        run.start()
        loop.run()
        let report = run.report()
        if !report.isEmpty { print(report) }
        if let error = run.runError {
            print("ws-bench: \(error)")
            return 1
        }
        return 0
    } catch {
        print("ws-bench: \(error)")
        return 1
    }
}

exit(runBench(Array(CommandLine.arguments.dropFirst())))
