#if canImport(Glibc)
import Glibc
#endif

/// Serves regular files below one root directory, with validators and conditional GET.
struct StaticFiles {
    /// The root, resolved to a real path without symlinks and without a trailing slash.
    let root: String
    /// Files larger than this are not served (the server reads files whole).
    let maxFileSize = 64 << 20

    /// Fails when `directory` does not exist or is not a directory.
    init(directory: String) throws(HTTPServerError) {
        guard let resolved = Self.realPath(directory), Self.isDirectory(resolved) else {
            throw .publicDirectoryMissing(directory)
        }
        root = resolved == "/" ? "" : resolved
    }

    /// The response for `request` naming the checked `segments`; 404 for anything that is not
    /// a regular file really located below the root (symlinks leading out are refused).
    func respond(to request: HTTPRequestHead, segments: [String]) -> HTTPResponse {
        var path = root + "/" + segments.joined(separator: "/")
        if Self.isDirectory(path) { path += path.hasSuffix("/") ? "index.html" : "/index.html" }
        guard let real = Self.realPath(path), real.hasPrefix(root + "/") else { return .error(404) }
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait on the loop for a writer;
        // fstat then refuses it, and reads of a regular file ignore the flag.
        let fd = open(real, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .error(404) }
        defer { Glibc.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .error(404) }
        guard Int(info.st_size) <= maxFileSize else { return .error(500) }

        let modified = Int(info.st_mtim.tv_sec)
        let etag = "\"\(String(UInt64(info.st_size), radix: 16))-\(String(modified, radix: 16))"
            + "\(String(Int(info.st_mtim.tv_nsec), radix: 16))\""
        let validators: [(name: String, value: String)] = [
            ("ETag", etag), ("Last-Modified", HTTPDate.format(modified)), ("Cache-Control", "no-cache"),
        ]
        if Self.isNotModified(request, etag: etag, modified: modified) {
            return HTTPResponse(status: 304, headers: validators)
        }
        guard let body = Self.readAll(fd, size: Int(info.st_size)) else { return .error(500) }
        let name = segments.last.map { Self.isDirectory(root + "/" + segments.joined(separator: "/")) ? "index.html" : $0 } ?? "index.html"
        return HTTPResponse(status: 200,
                            headers: [("Content-Type", MediaTypes.forFileName(name)),
                                      ("X-Content-Type-Options", "nosniff")] + validators,
                            body: body)
    }

    /// RFC 9110 §13.2.2: If-None-Match decides when present, else If-Modified-Since.
    private static func isNotModified(_ request: HTTPRequestHead, etag: String, modified: Int) -> Bool {
        let noneMatch = request.headers(named: "if-none-match")
        if !noneMatch.isEmpty {
            let tags = noneMatch.flatMap { $0.split(separator: ",") }.map { $0.trimmingWhitespace() }
            return tags.contains { $0 == "*" || $0 == etag || $0 == "W/" + etag }
        }
        if let since = request.header("if-modified-since"), let date = HTTPDate.parse(since) {
            return modified <= date
        }
        return false
    }

    private static func readAll(_ fd: Int32, size: Int) -> [UInt8]? {
        var body = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let n = body.withUnsafeMutableBytes { read(fd, $0.baseAddress! + offset, size - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            offset += n
        }
        return body
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
