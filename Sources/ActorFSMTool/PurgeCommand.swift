import ActorFSMDurability

/// `actorfsm purge`: deletes the journals of final machines older than an age, after a count of
/// what goes and a confirmation when more than one machine would.
struct PurgeCommand {
    let context: CommandContext
    let store: any MachinePurging
    /// Asks the operator a yes-or-no question; `true` for yes.
    let confirm: @Sendable (String) async -> Bool
    var invocation: Invocation { context.invocation }

    func run() async throws {
        guard let age = invocation.olderThan else {
            throw UsageError("purge needs --older-than: it deletes only final machines at least that old")
        }
        var query = invocation.query
        if let status = query.status, status != .final {
            throw UsageError("purge deletes only final machines, not \(status.rawValue) ones")
        }
        query = query.olderThan(age)
        let found = try await store.purge(query, keepingSummaries: invocation.keepsSummaries, dryRun: true)
        let what = invocation.keepsSummaries ? "journal" : "journal and summary"
        context.output("\(found.purged) final machines older than \(TextFormat.duration(age)): \(what) to delete\n")
        for id in found.firstIDs.prefix(20) { context.output("  \(id)\n") }
        if found.purged > 20 { context.output("  … and \(found.purged - 20) more\n") }
        guard !invocation.dryRun, found.purged > 0 else { return }
        if found.purged > 1 && !invocation.assumesYes {
            guard await confirm("Delete the \(what) of \(found.purged) machines? [y/N] ") else {
                throw RefusedByOperator()
            }
        }
        let done = try await store.purge(query, keepingSummaries: invocation.keepsSummaries)
        context.output("Purged \(done.purged) machines; the longest batch took \(TextFormat.duration(done.longestBatch))\n")
    }
}

/// The operator answered no: nothing was done.
struct RefusedByOperator: Error, CustomStringConvertible {
    var description: String { "not confirmed: nothing was purged (give --yes to skip the question)" }
}
