import ActorFSM

extension Supervisor {
    /// Whether this supervisor's schema, with its durability's migration, takes up every machine
    /// of an older version of the schema (the same name, another fingerprint) that has not ended:
    /// each state they occupy must be one of the schema's, or be mapped to one, and each event
    /// they hold (in an interrupted transition, or posted to themselves and not yet processed)
    /// must decode. It restores nothing and reads the store's schema descriptions and summaries
    /// (machine ids only for a state that fails); where a stored version's table names an event
    /// that the schema's does not, and that its event type does not decode from the name, it also
    /// reads the newest entry of each of that version's machines.
    /// A deploy's CI can run it against a copy of production's store. ``restoreAll(includingFinal:checkingCompatibility:)`` runs it first.
    ///
    /// ```swift
    /// let report = try await orders.compatibility()
    /// for problem in report.problems { print(problem) }
    /// ```
    ///
    /// - Throws: ``DurabilityError`` of kind `storeFailed` if the store cannot be read.
    public func compatibility() async throws(DurabilityError) -> CompatibilityReport {
        guard let durable, let store = durable.durability.store as? any MachineStore & StoreInspection else {
            return CompatibilityReport(problems: [])
        }
        do {
            let schema = self.schema
            let check = CompatibilityCheck(schema: durable.stored, store: store) { bytes, stored in
                durable.unreadable(bytes, of: stored, in: schema)
            }
            let versions = try await check.storedVersions()
            var report = try await check.report(of: versions)
            report.problems += try await EventCheck(coding: durable, schema: schema, store: store).problems(of: versions)
            return report
        } catch {
            throw DurabilityError(.storeFailed, machine: "(all)", detail: error.message)
        }
    }

    /// Throws ``DurabilityError/Kind-swift.struct/incompatible`` listing what ``compatibility()``
    /// found, if anything.
    func refuseIfIncompatible() async throws(DurabilityError) {
        let report = try await compatibility()
        guard !report.isCompatible, let durable else { return }
        throw DurabilityError(.incompatible, machine: durable.stored.description.name, detail: report.description
                              + ". Map each state with Durability's SchemaMigration, or cancel those machines first")
    }
}
