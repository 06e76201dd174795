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

/// The next release of the door, in which a jammed door is unlocked rather than kicked.
package enum Unkickable {
    /// Its types: `kick` is gone from the events.
    package enum Door: MachineDefinition {
        package typealias State = TestSupport.Door.State
        package enum Event: String, Codable, Hashable, Sendable { case open, close, lock, unlock, remind }
        package typealias ID = String
        package typealias Data = TestSupport.Door.Data
    }

    package static func schema() throws -> Schema<Door> {
        try Schema<Door>(initial: .closed) {
            define(.closed) { when(.open) | then(.open) ; when(.lock) | then(.locked) }
            define(.open) { when(.close) | then(.closed) }
            define(.locked) { when(.unlock) | then(.closed) ; after(.seconds(60)) | then(.jammed) }
            define(.jammed) { when(.unlock) | then(.closed) }
        }
    }

    /// The same table over the first release's types, whose events still include `kick`.
    package static func keepingTheCase() throws -> Schema<TestSupport.Door> {
        try Schema<TestSupport.Door>(initial: .closed) {
            define(.closed) { when(.open) | then(.open) ; when(.lock) | then(.locked) }
            define(.open) { when(.close) | then(.closed) }
            define(.locked) { when(.unlock) | then(.closed) ; after(.seconds(60)) | then(.jammed) }
            define(.jammed) { when(.unlock) | then(.closed) }
        }
    }

    /// Doors d1 and d2 of the first release in `store`, d1 scheduled to be kicked in an hour.
    package static func firstRelease(into store: any MachineStore) async throws {
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        let kicked = try await doors.activate(id: "d1", data: TestSupport.Door.Data())
        try await doors.activate(id: "d2", data: TestSupport.Door.Data())
        try kicked.schedule(.kick, after: .seconds(3_600))
        await doors.shutdown()
    }
}
