import ActorFSM

/// What a stored state is to the schema that reads it: the way a restore reads a machine's
/// state, and the way a compatibility check reads every state a store's machines occupy.
enum StateReading<State: Sendable>: Sendable {
    /// A state of the schema, as stored or through the migration.
    case state(State)
    /// Not a state of the schema, and no migration maps it (or it maps it to nothing).
    case unknown(migrated: Bool)
    /// The migration threw.
    case migrationFailed(String)
}

extension DurableCoding {
    /// Reads the state stored as `bytes` by a schema of version `schemaVersion`; `sameSchema`
    /// says whether this schema wrote it (its states are then read as they are). A state the
    /// schema does not know goes through the migration.
    func readState(_ bytes: [UInt8], schemaVersion: Int, sameSchema: Bool, in schema: Schema<Definition>) -> StateReading<State> {
        if let decoded = try? decodeState(bytes), sameSchema || schema.storage.table.stateIDs[decoded] != nil {
            return .state(decoded)
        }
        guard let migration = durability.migration else { return .unknown(migrated: false) }
        let stored = StoredValue(bytes: bytes, schemaVersion: schemaVersion, codec: codec)
        do {
            guard let state = try migration.state(stored) else { return .unknown(migrated: true) }
            return .state(state)
        } catch {
            return .migrationFailed("\(error)")
        }
    }
}
