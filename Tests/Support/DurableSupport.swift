import ActorFSM
import ActorFSMDurability
import ActorFSMTesting

/// A door whose machine counts how often it opened, kept in a store.
package enum Door: MachineDefinition {
    package enum State: String, Codable, Hashable, Sendable { case closed, open, locked, jammed }
    package enum Event: String, Codable, Hashable, Sendable { case open, close, lock, unlock, kick, remind }
    package typealias ID = String
    package struct Data: Codable, Sendable, Equatable {
        package var openings = 0
        package init(openings: Int = 0) { self.openings = openings }
    }
}

/// A door's table: opening counts; a lock jams after 60 seconds locked.
package func doorSchema() throws -> Schema<Door> {
    try Schema<Door>(initial: .closed, final: []) {
        define(.closed) {
            when(.open) | then(.open) | { context in context.data.openings += 1 }
            when(.lock) | then(.locked)
        }
        define(.open) { when(.close) | then(.closed) }
        define(.locked) {
            when(.unlock) | then(.closed)
            after(.seconds(60)) | then(.jammed)
        }
        define(.jammed) { when(.kick) | then(.closed) }
    }
}

/// Durability on `store`, with timer deadlines on `clock`.
package func doorDurability(
    _ store: any MachineStore, clock: ManualClock = ManualClock(), acknowledgement: Acknowledgement = .durable,
    compactionInterval: Int = 100, migration: SchemaMigration<Door>? = nil
) -> Durability<Door> {
    Durability(store: store, acknowledgement: acknowledgement, compactionInterval: compactionInterval,
               migration: migration, wallClock: clock)
}

/// The first record of `event` among the reports; `nil` if the stream ends first.
package func firstRecordOf<Definition: MachineDefinition>(
    _ event: Definition.Event, in reports: inout Subscription<SupervisorReport<Definition>>.Iterator
) async -> TransitionRecord<Definition>? where Definition.Event: Equatable {
    while let report = await reports.next() {
        if let record = report.record, record.event == event { return record }
    }
    return nil
}

/// The first record among `reports`; `nil` if the stream ends first.
package func firstRecord<Definition: MachineDefinition>(
    in reports: Subscription<SupervisorReport<Definition>>
) async -> TransitionRecord<Definition>? {
    for await report in reports {
        if let record = report.record { return record }
    }
    return nil
}
