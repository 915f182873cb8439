import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RxSwift

/// Why a `URLSession.rx` request failed, apart from the session's own errors.
public enum RxCocoaURLError: Swift.Error {
    /// The session gave neither a response nor an error.
    case unknown
    /// The response is not an HTTP response.
    case nonHTTPResponse(response: URLResponse)
    /// The HTTP status is not 2xx (`data(request:)`, `json(...)`).
    case httpRequestFailed(response: HTTPURLResponse, data: Data?)
    /// The body is not valid JSON (`json(...)`).
    case deserializationError(error: Swift.Error)
}

extension RxCocoaURLError: CustomDebugStringConvertible {
    /// A description for debugging.
    public var debugDescription: String {
        switch self {
        case .unknown:
            return "Unknown error has occurred."
        case let .nonHTTPResponse(response):
            return "Response is not NSHTTPURLResponse `\(response)`."
        case let .httpRequestFailed(response, _):
            return "HTTP request failed with `\(response.statusCode)`."
        case let .deserializationError(error):
            return "Error during deserialization of the response: \(error)"
        }
    }
}

extension Reactive where Base: URLSession {
    /// Sends `request` when subscribed: the HTTP response and its body, then completion; the
    /// session's error, or `RxCocoaURLError`, otherwise. Disposing the subscription cancels
    /// the request. Any status code counts as a response.
    ///
    /// - returns: An observable of one `(response, data)`.
    public func response(request: URLRequest) -> Observable<(response: HTTPURLResponse, data: Data)> {
        Observable.create { observer in
            let logged = URLRequestLogging.begin(request)
            // The session calls back on its own queue; Rx observers take events from any thread.
            let transfer = UncheckedTransfer(observer)
            let task = self.base.dataTask(with: request) { data, response, error in
                URLRequestLogging.end(logged, response: response, error: error)
                let observer = transfer.value
                guard let response, let data else {
                    observer.on(.error(error ?? RxCocoaURLError.unknown))
                    return
                }
                guard let httpResponse = response as? HTTPURLResponse else {
                    observer.on(.error(RxCocoaURLError.nonHTTPResponse(response: response)))
                    return
                }
                observer.on(.next((httpResponse, data)))
                observer.on(.completed)
            }
            task.resume()
            return Disposables.create { task.cancel() }
        }
    }

    /// Sends `request` when subscribed: the body of a 2xx response, then completion; fails
    /// with `RxCocoaURLError.httpRequestFailed` for another status.
    ///
    /// - returns: An observable of one `Data`.
    public func data(request: URLRequest) -> Observable<Data> {
        response(request: request).map { pair -> Data in
            guard 200 ..< 300 ~= pair.response.statusCode else {
                throw RxCocoaURLError.httpRequestFailed(response: pair.response, data: pair.data)
            }
            return pair.data
        }
    }

    /// Sends `request` when subscribed: the body of a 2xx response parsed as JSON with
    /// `options`; fails with `RxCocoaURLError.deserializationError` if it does not parse.
    ///
    /// - returns: An observable of one JSON object.
    public func json(request: URLRequest, options: JSONSerialization.ReadingOptions = []) -> Observable<Any> {
        data(request: request).map { data -> Any in
            do {
                return try JSONSerialization.jsonObject(with: data, options: options)
            } catch {
                throw RxCocoaURLError.deserializationError(error: error)
            }
        }
    }

    /// `json(request:)` for a GET of `url`.
    ///
    /// - returns: An observable of one JSON object.
    public func json(url: Foundation.URL) -> Observable<Any> {
        json(request: URLRequest(url: url))
    }
}

extension Reactive where Base == URLSession {
    /// Whether debug builds print a request (as a `curl` command) and its outcome.
    ///
    /// RxSwift's default logs every request in debug builds; here the default logs none (a
    /// server's debug output would drown in them). Set it to `{ _ in true }` to log.
    public static var shouldLogRequest: (URLRequest) -> Bool {
        get { URLRequestLogging.shouldLog }
        set { URLRequestLogging.shouldLog = newValue }
    }
}

/// The request log of `URLSession.rx` (debug builds only).
private enum URLRequestLogging {
    private static let lock = NSLock()
    /// Guarded by `lock`.
    nonisolated(unsafe) private static var predicate: (URLRequest) -> Bool = { _ in false }

    static var shouldLog: (URLRequest) -> Bool {
        get {
            lock.lock()
            defer { lock.unlock() }
            return predicate
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            predicate = newValue
        }
    }

    /// Prints `request` if it is to be logged and returns when it started, else `nil`.
    static func begin(_ request: URLRequest) -> Date? {
        #if DEBUG
        guard shouldLog(request) else { return nil }
        var command = "curl -X \(request.httpMethod ?? "GET")"
        for (field, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            command += " -H \"\(field): \(value)\""
        }
        if let body = request.httpBody, let text = String(data: body, encoding: .utf8) {
            command += " -d \"\(text)\""
        }
        command += " \"\(request.url?.absoluteString ?? "")\""
        print(command)
        return Date()
        #else
        return nil
        #endif
    }

    /// Prints the outcome of a request `begin` logged.
    static func end(_ started: Date?, response: URLResponse?, error: Swift.Error?) {
        guard let started else { return }
        let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
        if let error {
            print("Failure (\(milliseconds)ms): \(error)")
        } else if let response = response as? HTTPURLResponse {
            print("Success (\(milliseconds)ms): status \(response.statusCode)")
        } else {
            print("Success (\(milliseconds)ms)")
        }
    }
}
