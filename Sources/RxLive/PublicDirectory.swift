import FoundationEssentials
import Glibc

/// Finds the folder of the page: the one given, or `Public/` in the working
/// directory, or `Public/` beside the executable (as the container stages it).
enum PublicDirectory {
    static func locate(given: String?, fileManager: FileManager = .default) throws -> String {
        if let given {
            guard isDirectory(given, fileManager) else {
                throw ConfigurationError(description: "public folder '\(given)' does not exist")
            }
            return URL(fileURLWithPath: given).standardizedFileURL.path
        }
        let candidates = [
            URL(fileURLWithPath: fileManager.currentDirectoryPath).appendingPathComponent("Public"),
            executableDirectory().appendingPathComponent("Public"),
        ]
        guard let found = candidates.first(where: { isDirectory($0.path, fileManager) }) else {
            let tried = candidates.map(\.path).joined(separator: " or ")
            throw ConfigurationError(description: "no Public/ folder at \(tried); pass --public")
        }
        return found.standardizedFileURL.path
    }

    private static func isDirectory(_ path: String, _ fileManager: FileManager) -> Bool {
        var directory = false
        return fileManager.fileExists(atPath: path, isDirectory: &directory) && directory
    }

    /// The real folder of the running binary (through symlinks), from /proc on Linux.
    private static func executableDirectory() -> URL {
        let link = URL(fileURLWithPath: "/proc/self/exe")
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: link.path))
            .map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        return executable.deletingLastPathComponent()
    }
}
