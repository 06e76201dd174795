import ActorFSM

/// How a durable machine reads what an older schema wrote: a state the current schema does not
/// know (renamed or removed) and data written by another ``Durability/schemaVersion``.
///
/// ```swift
/// let migration = SchemaMigration<StoredOrders>(
///     state: { stored in
///         switch try stored.decode(as: String.self) {
///         case "awaitingPayment": .paymentPending
///         default: nil
///         }
///     },
///     data: { stored in Purchase(try stored.decode(as: PurchaseV1.self)) })
/// ```
public struct SchemaMigration<Definition: MachineDefinition>: Sendable {
    /// The state to resume in for a stored state the schema does not know; `nil` reports the
    /// machine as unrecoverable (``DurabilityError``).
    public let state: @Sendable (StoredValue) throws -> Definition.State?
    /// The data to resume with, for data written by another schema version.
    public let data: (@Sendable (StoredValue) throws -> Definition.Data)?

    /// A migration of states and, optionally, of data.
    public init(
        state: @escaping @Sendable (StoredValue) throws -> Definition.State?,
        data: (@Sendable (StoredValue) throws -> Definition.Data)? = nil
    ) {
        self.state = state
        self.data = data
    }
}
