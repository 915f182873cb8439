import Rx

/// One output stream of a view model as it appears on the wire: its name and how
/// each element is written (`{"output":"<name>","value":<element as JSON>}`).
public struct WireOutput<Output> {
    /// The output's name in messages.
    public let name: String
    /// Subscribes the output of one session: each element becomes a message for `send`;
    /// an error goes to `fail`.
    let bind: (_ output: Output, _ send: @escaping (String) -> Void, _ fail: @escaping (Error) -> Void) -> Disposable

    /// The output named `name`, read from `stream` of the view model's `Output`.
    public init<Element: JSONValueEncodable>(_ name: String, _ stream: KeyPath<Output, Observable<Element>>) {
        self.name = name
        let template = OutputMessageTemplate(output: name)
        bind = { output, send, fail in
            output[keyPath: stream].subscribe(
                onNext: { send(template.message($0)) },
                onError: { fail($0) })
        }
    }
}
