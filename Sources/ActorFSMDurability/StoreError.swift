import ActorFSM

/// Why a store could not open, write or read.
public struct StoreError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What went wrong, with the detail a user acts on: the file, the process that holds it, the
    /// database's own message.
    public let message: String
    /// Whether another process holds the store file: only one process writes a SQLite store at a
    /// time.
    public let isLocked: Bool
    /// Whether a write was rejected because this process no longer holds the machine's lease:
    /// another process took the machine over, and this one must stop writing it.
    public let isFenced: Bool
    /// Whether an operator's act on a machine was refused because another live process holds
    /// the machine: an ``OperatorRequest`` reaches that process.
    public let isHeldElsewhere: Bool

    /// An error with `message`.
    public init(_ message: String, isLocked: Bool = false, isFenced: Bool = false, isHeldElsewhere: Bool = false) {
        self.message = message
        self.isLocked = isLocked
        self.isFenced = isFenced
        self.isHeldElsewhere = isHeldElsewhere
    }

    /// The message.
    public var description: String { message }
}
