import Rx

/// Runs `body` with synchronization anomalies recorded instead of printed, and returns them
/// (debug builds report reentrant delivery; release builds report nothing).
func recordingAnomalies(_ body: () -> Void) -> [SynchronizationAnomaly] {
    let recorder = AnomalyRecorder()
    let previous = Hooks.synchronizationAnomalyHandler
    Hooks.synchronizationAnomalyHandler = { recorder.record($0) }
    defer { Hooks.synchronizationAnomalyHandler = previous }
    body()
    return recorder.recorded
}

/// Whether this build reports reentrant delivery (debug builds only).
var reentrancyIsReported: Bool {
    #if DEBUG
    return true
    #else
    return false
    #endif
}
