import ActorFSMDurability
import Foundation

/// `actorfsm export`: the histories of the machines the filters select (`--limit` of them at
/// most, longest since their last transition first), as a JSON array of `StoredHistory`, for a
/// `Replay` of production's machines through a new version of their schema in a test.
struct ExportCommand {
    let context: CommandContext

    func run() async throws {
        var query = context.invocation.query
        if let age = context.invocation.olderThan { query = query.olderThan(age) }
        let count = query.limit
        query.limit = min(count, 1_000)
        let histories = try await StoredHistory.read(from: context.store, matching: query, atMost: count)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        context.output(String(decoding: try encoder.encode(histories), as: UTF8.self) + "\n")
    }
}
