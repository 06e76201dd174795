import ActorFSM
import ActorFSMDurability

/// An error that crossed a process boundary: its type and message, which are all that can
/// travel of an error that is not `Codable`. Records and `MachineError`s decoded from another
/// process carry it where they carried the original error.
public struct RemoteFailure: Error, Sendable, Codable, Hashable, CustomStringConvertible {
    /// The original error's type, as `String(reflecting:)` spelled it.
    public let type: String
    /// The original error's description.
    public let message: String

    /// The failure that stands for `error` in another process.
    public init(_ error: any Error) {
        if let failure = error as? RemoteFailure {
            self = failure
        } else {
            type = String(reflecting: Swift.type(of: error))
            message = "\(error)"
        }
    }

    /// The original error's description.
    public var description: String { message }
}
