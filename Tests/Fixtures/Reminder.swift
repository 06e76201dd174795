import ActorFSM

/// A reminder that expires 60 seconds after it is made, unless parked or rung first: the
/// machine the takeover tests kill a process holding.
public enum Reminder: MachineDefinition {
    public enum State: String, Codable, Hashable, Sendable { case waiting, parked, expired, rung }
    public enum Event: String, Codable, Hashable, Sendable { case park, poke, ring }
    public typealias ID = String
}

/// The reminder's table: a waiting reminder expires after 60 seconds; a parked one has no timer;
/// ringing one runs `ringing` on the way to `rung`.
public func reminderSchema(ringing: @escaping @Sendable () async -> Void = {}) throws -> Schema<Reminder> {
    try Schema<Reminder>(initial: .waiting, final: [.expired]) {
        define(.waiting) {
            when(.park) | then(.parked)
            when(.ring) | then(.rung) | { (_: TransitionContext<Reminder>) async in await ringing() }
            after(.seconds(60)) | then(.expired)
        }
        define(.parked) { when(.poke) | then(.parked) }
        define(.rung) { when(.poke) | then(.rung) }
    }
}
