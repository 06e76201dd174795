import ActorFSMDurability
import Foundation

/// `actorfsm check --schema-description FILE`: whether a new version of a schema, described by
/// the file that `StoredSchema.json()` wrote, takes up every machine of its older versions in the
/// store that has not ended (see `Supervisor.compatibility()`). It reads the store's schema
/// descriptions and summaries only. It cannot run the application's `SchemaMigration`: the
/// states a migration maps are named with `--mapped`.
struct CheckCommand {
    let context: CommandContext
    let path: String

    func run() async throws {
        let schema: StoredSchema
        do {
            schema = try JSONDecoder().decode(StoredSchema.self, from: try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw CommandFailure("cannot read the schema description \(path): \(error). Write it with "
                                 + "StoredSchema(schema:durability:).json()")
        }
        let check = CompatibilityCheck(description: schema, store: context.store, mapped: context.invocation.mapped)
        let report = try await check.report()
        guard !report.isCompatible else {
            context.output("\(schema.description.name) \(schema.fingerprint) takes up every machine of its older versions "
                           + "that has not ended\n")
            return
        }
        for problem in report.problems { context.output("\(problem)\n") }
        throw CommandFailure("\(schema.description.name) \(schema.fingerprint) cannot take up the machines in "
                             + "\(report.problems.count) stored states: a supervisor of it would restore none")
    }
}
