import Rx
import ViewModels

/// One output stream of a view model as it appears on the wire: its name and how
/// each element is written (`{"output":"<name>","value":<element as JSON>}`).
public struct WireOutput<Output> {
    /// The output's name in messages.
    public let name: String
    /// Subscribes the output of one session: each element becomes a message for `send`;
    /// an error goes to `fail`; while someone watches the session, every event is also
    /// recorded into `trace` as a marble of this output's lane.
    let bind: (_ output: Output, _ trace: Tap<Marble>, _ send: @escaping (String) -> Void, _ fail: @escaping (Error) -> Void) -> Disposable

    /// The output named `name`, read from `stream` of the view model's `Output`.
    public init<Element: JSONValueEncodable>(_ name: String, _ stream: KeyPath<Output, Observable<Element>>) {
        self.name = name
        let template = OutputMessageTemplate(output: name)
        // Made once per output, not per session: a session's tap allocates no closure of its own.
        let marble: (Event<Element>) -> Marble = { event in Marble(lane: name, event: event) }
        bind = { output, trace, send, fail in
            output[keyPath: stream]
                .tap(trace, marble)
                .subscribe(
                    onNext: { send(template.message($0)) },
                    onError: { fail($0) })
        }
    }
}

extension Marble {
    /// The marble of an output's event: the element as its JSON text, the error as described.
    init<Element: JSONValueEncodable>(lane: String, event: Event<Element>) {
        let time = marbleClock()
        switch event {
        case .next(let element):
            var label = ""
            element.appendJSON(to: &label)
            self.init(lane: lane, kind: .next, label: label, timeMicroseconds: time)
        case .error(let error):
            self.init(lane: lane, kind: .error, label: "\(error)", timeMicroseconds: time)
        case .completed:
            self.init(lane: lane, kind: .completed, timeMicroseconds: time)
        }
    }
}
