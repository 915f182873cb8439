#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Converts between a virtual time scheduler's units and real time (RxSwift's requirements:
/// intervals convert to and from `TimeInterval` seconds).
public protocol VirtualTimeConverterType {
    /// Virtual time.
    associatedtype VirtualTimeUnit
    /// Virtual time interval.
    associatedtype VirtualTimeIntervalUnit

    /// Real time of `virtualTime`.
    func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime
    /// Virtual time of `time`.
    func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit
    /// Seconds of `virtualTimeInterval`.
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> TimeInterval
    /// Virtual interval of `timeInterval` seconds.
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit
    /// `time` moved by `offset`.
    func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit
    /// Order of two virtual times.
    func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison
}

/// Order of two virtual times.
public enum VirtualTimeComparison: Sendable {
    /// lhs < rhs
    case lessThan
    /// lhs == rhs
    case equal
    /// lhs > rhs
    case greaterThan
}

extension VirtualTimeComparison {
    var lessThen: Bool { self == .lessThan }
    var greaterThan: Bool { self == .greaterThan }
    var equal: Bool { self == .equal }
}
