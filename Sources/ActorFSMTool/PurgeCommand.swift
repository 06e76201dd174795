import ActorFSMDurability

/// `actorfsm purge`: deletes the journals of ended machines (final or cancelled) older than an
/// age, after a count of what goes (read beside the store's writer) and a confirmation when
/// more than one machine would; only then does it open the store as a writer.
struct PurgeCommand {
    let context: CommandContext
    /// Asks the operator a yes-or-no question; `true` for yes.
    let confirm: @Sendable (String) async -> Bool
    var invocation: Invocation { context.invocation }

    func run() async throws {
        let age = try invocation.purgeAge()
        let query = invocation.query.olderThan(age)
        do {
            _ = try await context.store.storedSchemas()
        } catch {
            throw StoreError("\(invocation.store) holds no actorfsm store to purge (\(error))")
        }
        let keeping = invocation.keepsSummaries
        let found = try await context.store.purgePreview(query, keepingSummaries: keeping)
        context.output("\(found.purged) ended machines older than \(TextFormat.duration(age)): "
                       + (keeping ? "journal to delete, summary kept as purged\n" : "journal and summary to delete\n"))
        for id in found.firstIDs.prefix(20) { context.output("  \(id)\n") }
        if found.purged > 20 { context.output("  … and \(found.purged - 20) more\n") }
        guard !invocation.dryRun, found.purged > 0 else { return }
        if found.purged > 1 && !invocation.assumesYes {
            guard await confirm("Delete the journal\(keeping ? "" : " and summary") of \(found.purged) machines? [y/N] ") else {
                throw RefusedByOperator(nothing: "nothing was purged")
            }
        }
        let writable = try StoreOpening.openForWriting(invocation.store, namespace: invocation.namespace)
        defer { writable.close() }
        let done = try await writable.store.purge(query, keepingSummaries: keeping)
        context.output("Purged \(done.purged) machines; the longest batch took \(TextFormat.duration(done.longestBatch))\n")
    }
}

/// The operator answered no: nothing was done.
struct RefusedByOperator: Error, CustomStringConvertible {
    /// What was not done.
    let nothing: String
    var description: String { "not confirmed: \(nothing) (give --yes to skip the question)" }
}
