/// What the dashboard's Record control says: whose new sessions are recorded now.
struct RecordingControl: Sendable, Equatable {
    /// The view model whose sessions opening from now on are recorded; nil for none.
    var viewModel: String?
    /// Why the last request failed, if it did.
    var error: String?
}

/// A file the dashboard hands its viewer for one recorded session: the XCTest case
/// `replay --rxtest` writes for it, or the recording itself; or why there is none.
enum DashboardDownload: Sendable, Equatable {
    /// What was asked for.
    enum Kind: String, Sendable {
        /// The XCTest case (`replay --rxtest`).
        case test
        /// The recording (`.rxlive.jsonl`).
        case recording
    }

    case file(session: String, kind: Kind, name: String, text: String)
    case failed(session: String, kind: Kind, message: String)
}

extension RecordingControl: JSONValueEncodable {
    /// `{"viewModel":"sum"}`, `{"viewModel":null}`, with `"error":"…"` after a failed request.
    func appendJSON(to json: inout String) {
        json.append("{\"viewModel\":")
        if let viewModel { json.appendJSONString(viewModel) } else { json.append("null") }
        if let error {
            json.append(",\"error\":")
            json.appendJSONString(error)
        }
        json.append("}")
    }
}

extension DashboardDownload: JSONValueEncodable {
    /// `{"session":…,"kind":"test","fileName":…,"text":…}`, or `{"session":…,"kind":…,"error":…}`.
    func appendJSON(to json: inout String) {
        switch self {
        case .file(let session, let kind, let name, let text):
            json.append("{\"session\":")
            json.appendJSONString(session)
            json.append(",\"kind\":\"\(kind.rawValue)\",\"fileName\":")
            json.appendJSONString(name)
            json.append(",\"text\":")
            json.appendJSONString(text)
        case .failed(let session, let kind, let message):
            json.append("{\"session\":")
            json.appendJSONString(session)
            json.append(",\"kind\":\"\(kind.rawValue)\",\"error\":")
            json.appendJSONString(message)
        }
        json.append("}")
    }
}

extension DashboardRecordings {
    /// The Record control after asking to record `viewModel`'s new sessions ("" stops).
    func control(arming viewModel: String) -> RecordingControl {
        do {
            try arm(viewModel)
            return RecordingControl(viewModel: armed)
        } catch {
            return RecordingControl(viewModel: armed, error: "\(error)")
        }
    }

    /// Session `id`'s file of `kind`, made on `exporter`'s child process for a test; run on
    /// a background queue, as the export waits for its child.
    func download(_ id: String, _ kind: DashboardDownload.Kind, exporter: RecordingExporter) -> DashboardDownload {
        do {
            let (name, text) = try contents(of: id)
            switch kind {
            case .recording:
                return .file(session: id, kind: kind, name: name, text: text)
            case .test:
                let test = try exporter.testCase(recording: text, fileName: name)
                return .file(session: id, kind: kind, name: test.name, text: test.source)
            }
        } catch {
            return .failed(session: id, kind: kind, message: "\(error)")
        }
    }
}
