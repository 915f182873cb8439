// An app imports RxLive alone: the declarations it writes (WireViewModel, WireOutput,
// WireInputs, ProtocolError, RateLimit) are Sessions', re-exported here.
@_exported import Sessions
