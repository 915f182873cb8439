
// The dashboard's outputs on the wire (PROTOCOL.md, "The dashboard"). Every number is
// an integer far below 2^53, so any JSON reader reads it exactly.

extension ServerStats: JSONValueEncodable {
    /// `{"uptime":…,"sessions":{…},"messagesIn":…,"messagesOut":…,"p50":…,"p99":…,"rxResources":…,"loops":[…],"recent":[…]}`.
    func appendJSON(to json: inout String) {
        json.append("{\"uptime\":")
        json.append(String(Int((uptimeSeconds * 1000).rounded())))
        json.append(",\"sessions\":{")
        for (position, entry) in sessions.enumerated() {
            if position > 0 { json.append(",") }
            json.appendJSONString(entry.name)
            json.append(":")
            json.append(String(entry.open))
        }
        json.append("},\"messagesIn\":\(messagesInPerSecond),\"messagesOut\":\(messagesOutPerSecond)")
        json.append(",\"p50\":\(Self.optional(latencyP50Microseconds)),\"p99\":\(Self.optional(latencyP99Microseconds))")
        json.append(",\"rxResources\":\(rxResources),\"loops\":[")
        for (position, loop) in loops.enumerated() {
            if position > 0 { json.append(",") }
            json.append("{\"loop\":\(loop.index),\"sessions\":\(loop.sessionsOpen)")
            json.append(",\"messagesIn\":\(loop.messagesInPerSecond),\"messagesOut\":\(loop.messagesOutPerSecond)")
            json.append(",\"p50\":\(Self.optional(loop.latencyP50Microseconds)),\"p99\":\(Self.optional(loop.latencyP99Microseconds))}")
        }
        json.append("],\"recent\":[")
        for (position, session) in recentSessions.enumerated() {
            if position > 0 { json.append(",") }
            json.append("{\"id\":")
            json.appendJSONString(session.id)
            json.append(",\"viewModel\":")
            json.appendJSONString(session.viewModel)
            json.append(",\"age\":\(session.ageSeconds)}")
        }
        json.append("]}")
    }

    private static func optional(_ value: Int?) -> String {
        value.map(String.init) ?? "null"
    }
}

extension SessionWatchEvent: JSONValueEncodable {
    /// One object with one key naming the event: `watching`, `notFound`, `marble`, `ended` or `stopped`.
    func appendJSON(to json: inout String) {
        switch self {
        case .watching(let session, let viewModel, let lanes):
            json.append("{\"watching\":{\"session\":")
            json.appendJSONString(session)
            json.append(",\"viewModel\":")
            json.appendJSONString(viewModel)
            json.append(",\"lanes\":[")
            for (position, lane) in lanes.enumerated() {
                if position > 0 { json.append(",") }
                json.append("{\"name\":")
                json.appendJSONString(lane.name)
                json.append(",\"role\":\"\(lane.role.rawValue)\",\"shape\":\"\(lane.shape.rawValue)\"}")
            }
            json.append("]}}")
        case .notFound(let session):
            json.append("{\"notFound\":{\"session\":")
            json.appendJSONString(session)
            json.append("}}")
        case .marble(let marble):
            json.append("{\"marble\":{\"lane\":")
            json.appendJSONString(marble.lane)
            json.append(",\"kind\":\"\(marble.kind.rawValue)\"")
            if let label = marble.label {
                json.append(",\"label\":")
                json.appendJSONString(label)
            }
            if let length = marble.length {
                json.append(",\"length\":\(length)")
            }
            if marble.skippedBefore > 0 {
                json.append(",\"skipped\":\(marble.skippedBefore)")
            }
            json.append(",\"t\":\(marble.timeMicroseconds)}}")
        case .ended(let session):
            json.append("{\"ended\":{\"session\":")
            json.appendJSONString(session)
            json.append("}}")
        case .stopped:
            json.append("{\"stopped\":{}}")
        }
    }
}
