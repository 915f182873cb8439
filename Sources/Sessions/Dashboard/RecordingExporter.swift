import FoundationEssentials
import Glibc

/// Turns a recording into the XCTest case `<app> replay --rxtest FILE` writes, by running
/// exactly that as a child process of this very executable: a replay hosts `MainScheduler` on
/// virtual time for the whole process, which a serving process must never do. The child gets
/// the recording in a private temporary folder (700, the file 600, both removed after), at
/// most `timeout` and `maxOutput` bytes of output.
struct RecordingExporter: Sendable {
    /// This executable (every `RxLiveApp` has the `replay` subcommand).
    var executable = RecordingExporter.currentExecutable()
    var timeout: Duration = .seconds(30)
    var maxOutput = 4 * 1024 * 1024

    /// The test case for the recording `text` whose file was named `fileName`, and its file's
    /// name (`<TypeName>.swift`).
    /// - Throws: `RecordingError` saying why in one line (the child's own words when it failed).
    func testCase(recording text: String, fileName: String) throws -> (name: String, source: String) {
        var template = Array((FileManager.default.temporaryDirectory.path + "/rxlive-export-XXXXXX").utf8CString)
        guard let folder = mkdtemp(&template).map({ String(cString: $0) }) else {
            throw RecordingError(description: "cannot make a private temporary folder for the export")
        }
        let path = folder + "/" + fileName
        defer {
            unlink(path)
            rmdir(folder)
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw RecordingError(description: "cannot write the recording for the export") }
        let written = Array(text.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == text.utf8.count else { throw RecordingError(description: "cannot write the recording for the export") }
        let run = try ChildProcess.run(executable, ["replay", "--rxtest", path], timeout: timeout, maxOutput: maxOutput)
        guard run.status == 0 else {
            let said = run.errorOutput.split(separator: "\n").first.map(String.init) ?? "exit status \(run.status)"
            throw RecordingError(description: "the export failed: \(said.prefix(300))")
        }
        let source = run.output
        let type = source.split(separator: "\n").first { $0.hasPrefix("final class ") }?
            .dropFirst("final class ".count).prefix { $0 != ":" }
        guard let type, !type.isEmpty else { throw RecordingError(description: "the export wrote no test case") }
        return ("\(type).swift", source)
    }

    /// The running executable's path, read now (a child spawned from `/proc/self/exe` would
    /// look it up in itself).
    static func currentExecutable() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

/// One run of a child process whose standard output and error are read to their end, within
/// a time and a size.
enum ChildProcess {
    struct Run {
        var status: Int32
        var output: String
        var errorOutput: String
    }

    /// Runs `executable` with `arguments`; killed (and an error thrown) past `timeout` or when
    /// it writes more than `maxOutput` bytes.
    static func run(_ executable: String, _ arguments: [String], timeout: Duration, maxOutput: Int) throws -> Run {
        var out: [Int32] = [-1, -1], err: [Int32] = [-1, -1]
        guard pipe(&out) == 0, pipe(&err) == 0 else {
            throw RecordingError(description: "cannot start the export: no pipe")
        }
        // Not inherited by other children; the spawn's dup2 gives this one its copies.
        for end in out + err { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(out[1])
        close(err[1])
        defer {
            close(out[0])
            close(err[0])
        }
        guard spawned == 0 else { throw RecordingError(description: "cannot start the export: \(String(cString: strerror(spawned)))") }
        var output: [UInt8] = [], errorOutput: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        var open = [out[0], err[0]]
        var failure: String?
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while !open.isEmpty {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { failure = "the export took over \(timeout)"; break }
            var polled = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            if poll(&polled, nfds_t(polled.count), milliseconds) < 0, errno != EINTR { failure = "the export could not be read"; break }
            for entry in polled where entry.revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count <= 0 { open.removeAll { $0 == entry.fd }; continue }
                if entry.fd == out[0] { output += chunk[..<count] } else if errorOutput.count < 64 * 1024 { errorOutput += chunk[..<count] }
            }
            if output.count > maxOutput { failure = "the export wrote over \(maxOutput) bytes"; break }
        }
        if failure != nil { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        if let failure { throw RecordingError(description: failure) }
        // Exited normally: its exit code; killed by a signal: 128 + the signal, as a shell says.
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Run(status: exitStatus, output: String(decoding: output, as: UTF8.self),
                   errorOutput: String(decoding: errorOutput, as: UTF8.self))
    }
}
