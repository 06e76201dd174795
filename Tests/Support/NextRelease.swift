import ActorFSM
import ActorFSMDurability
import ActorFSMTesting

/// The next release of the door, under the same name: `locked` is gone, `sealed` replaces it.
package enum NextRelease {
    package enum Door: MachineDefinition {
        package enum State: String, Codable, Hashable, Sendable { case closed, open, sealed, jammed }
        package typealias Event = TestSupport.Door.Event
        package typealias ID = String
        package typealias Data = TestSupport.Door.Data
    }

    package static func schema() throws -> Schema<Door> {
        try Schema<Door>(initial: .closed) {
            define(.closed) { when(.open) | then(.open) ; when(.lock) | then(.sealed) }
            define(.open) { when(.close) | then(.closed) }
            define(.sealed) { when(.unlock) | then(.closed) }
            define(.jammed) { when(.kick) | then(.closed) }
        }
    }

    /// Maps the old `locked` to `sealed`.
    package static let migration = SchemaMigration<Door>(state: { stored in
        try stored.decode(as: String.self) == "locked" ? .sealed : nil
    })

    /// Doors d1–d3 locked, d4 closed, d5 locked then cancelled, written by the first release
    /// into `store`.
    package static func firstRelease(into store: any MachineStore) async throws {
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        for id in ["d1", "d2", "d3", "d4", "d5"] { try await doors.activate(id: id, data: TestSupport.Door.Data()) }
        for id in ["d1", "d2", "d3", "d5"] { try await doors.send(to: id, .lock) }
        _ = try await doors.cancel("d5", reason: "scrapped")
        await doors.shutdown()
    }

    /// A supervisor of the next release, schema version 2, on `store`.
    package static func supervisor(on store: any MachineStore, migration: SchemaMigration<Door>? = nil) throws
        -> Supervisor<Door> {
        try Supervisor(schema: try schema(), durability: Durability(store: store, schemaVersion: 2, migration: migration))
    }
}
