import RxSwift

/// Runs `body` with `Hooks.synchronizationAnomalyHandler` recording instead of printing, and
/// returns the anomalies reported meanwhile (always empty in release builds).
func recordingAnomalies(_ body: () -> Void) -> [SynchronizationAnomaly] {
    let anomalies = AnomalyRecorder()
    let previous = Hooks.synchronizationAnomalyHandler
    Hooks.synchronizationAnomalyHandler = { anomalies.record($0) }
    defer { Hooks.synchronizationAnomalyHandler = previous }
    body()
    return anomalies.recorded
}

/// Whether a debug build reports reentrancy (release builds do not track it).
let reentrancyIsTracked: Bool = {
    #if DEBUG
    return true
    #else
    return false
    #endif
}()
