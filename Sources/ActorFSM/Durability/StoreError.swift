/// Why a store could not open, write or read.
public struct StoreError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What went wrong, with the detail a user acts on: the file, the process that holds it, the
    /// database's own message.
    public let message: String
    /// Whether the store file is held by another process: only one writes a store at a time.
    public let isLocked: Bool

    /// An error with `message`.
    public init(_ message: String, isLocked: Bool = false) {
        self.message = message
        self.isLocked = isLocked
    }

    /// The message.
    public var description: String { message }
}
