/// The server's routes by path. While there are few paths, a request's path is found by
/// comparing it with each (a short path is compared in a few instructions); hashing the
/// `String` for a dictionary cost about 350 instructions a request. Past `scanLimit` paths
/// the dictionary answers, so a server with many routes never scans them all.
struct RouteTable {
    /// The most paths looked up by comparison.
    static let scanLimit = 16

    private var byPath: [String: HTTPServer.PathRoutes] = [:]
    /// The same entries in registration order, for the scan.
    private var paths: [String] = []
    private var entries: [HTTPServer.PathRoutes] = []

    /// The routes registered for `path` (compared as `String`s compare), `nil` for none.
    subscript(path: String) -> HTTPServer.PathRoutes? {
        guard paths.count <= Self.scanLimit else { return byPath[path] }
        for position in paths.indices where paths[position] == path {
            return entries[position]
        }
        return nil
    }

    /// The dictionary's answer alone, for tests that check the scan agrees with it.
    func hashedLookUp(_ path: String) -> HTTPServer.PathRoutes? { byPath[path] }

    /// Changes `path`'s routes (empty ones when it has none yet).
    mutating func update(_ path: String, _ change: (HTTPServer.PathRoutes) -> Void) {
        if let routes = byPath[path] {
            change(routes)
            return
        }
        let routes = HTTPServer.PathRoutes()
        change(routes)
        byPath[path] = routes
        paths.append(path)
        entries.append(routes)
    }
}
