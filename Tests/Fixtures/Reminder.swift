import ActorFSM

/// A reminder that expires 60 seconds after it is made, unless parked first: the machine the
/// takeover tests kill a process holding.
public enum Reminder: MachineDefinition {
    public enum State: String, Codable, Hashable, Sendable { case waiting, parked, expired }
    public enum Event: String, Codable, Hashable, Sendable { case park, poke }
    public typealias ID = String
}

/// The reminder's table: a waiting reminder expires after 60 seconds; a parked one has no timer.
public func reminderSchema() throws -> Schema<Reminder> {
    try Schema<Reminder>(initial: .waiting, final: [.expired]) {
        define(.waiting) {
            when(.park) | then(.parked)
            after(.seconds(60)) | then(.expired)
        }
        define(.parked) { when(.poke) | then(.parked) }
    }
}
