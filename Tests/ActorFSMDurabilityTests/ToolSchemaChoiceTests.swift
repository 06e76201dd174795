import ActorFSM
import ActorFSMDurability
import ActorFSMSQLite
import ActorFSMTesting
@testable import ActorFSMTool
import Testing
import TestSupport

/// Choosing a schema on the command line: by its name, and by fingerprint only where two
/// versions share the name.
@Suite(.timeLimit(.minutes(3))) struct ToolSchemaChoiceTests {
    /// The jobs, a second schema (chores) and, if asked, a second version of the jobs' schema,
    /// on one SQLite store.
    final class MixedStore {
        let folder: TemporaryFolder
        let path: String
        let store: SQLiteStore
        let jobs: Supervisor<Job>
        let chores: Supervisor<Chore>
        let newJobs: Supervisor<Job>?

        init(withSecondJobVersion: Bool) async throws {
            folder = try TemporaryFolder()
            path = folder.file("mixed.sqlite")
            // The tool reads beside the writer: with no delay, it sees each summary at its commit.
            store = try SQLiteStore(path: path, summaryDelay: .zero)
            let clock = jobClock()
            jobs = try await runJobs(on: store, clock: clock)
            chores = try Supervisor(schema: try choreSchema(), durability: Durability(store: store, wallClock: clock))
            try await chores.activate(id: "c1")
            if withSecondJobVersion {
                let jobs = try Supervisor(schema: try ToolSchemaChoiceTests.secondJobSchema(),
                                          durability: Durability(store: store, schemaVersion: 2, wallClock: clock))
                try await jobs.activate(id: "k1", data: Job.Data())
                newJobs = jobs
            } else {
                newJobs = nil
            }
        }

        func close() async {
            await newJobs?.shutdown()
            await chores.shutdown()
            await jobs.shutdown()
            store.close()
        }
    }

    /// The jobs' schema without the broken state: another fingerprint (which covers states and
    /// events) under the same name.
    static func secondJobSchema() throws -> Schema<Job> {
        try Schema<Job>(initial: .queued, final: [.done]) {
            define(.queued) { when(.start) | then(.running) | { context in context.data.steps += 1 } }
            define(.running) { when(.finish) | then(.done) }
        }
    }

    @Test func aDiagramOfAStoreOfSeveralSchemasNamesTheSchemaToChoose() async throws {
        let mixed = try await MixedStore(withSecondJobVersion: false)
        let unchosen = ToolOutput()
        #expect(await unchosen.run(["states", "--store", mixed.path, "--mermaid"]) == 1)
        let refusal: String = unchosen.errors.withLock { $0 }
        #expect(refusal.contains("the store holds 2 schemas: choose one with --schema Chore or Job"))

        let chosen = ToolOutput()
        #expect(await chosen.run(["states", "--store", mixed.path, "--mermaid", "--schema", "Chore"]) == 0)
        let diagram: String = chosen.text.withLock { $0 }
        #expect(diagram.hasPrefix("stateDiagram-v2"))
        #expect(diagram.contains("idle"))
        #expect(!diagram.contains("queued"))

        let table = ToolOutput()
        #expect(await table.run(["states", "--store", mixed.path, "--schema", "Job"]) == 0)
        let names: [String] = firstColumn(table.text.withLock { $0 })
        #expect(names == ["Job", "Job", "Job"])

        let machines = ToolOutput()
        #expect(await machines.run(["machines", "--store", mixed.path, "--schema", "Chore"]) == 0)
        #expect(firstColumn(machines.text.withLock { $0 }) == ["c1"])
        await mixed.close()
    }

    @Test func aNameNoSchemaHasIsAFailureListingTheNames() async throws {
        let mixed = try await MixedStore(withSecondJobVersion: false)
        let output = ToolOutput()
        #expect(await output.run(["machines", "--store", mixed.path, "--schema", "Invoice"]) == 1)
        let errors: String = output.errors.withLock { $0 }
        #expect(errors.contains("the store describes no schema named Invoice; it describes Chore and Job"))
        await mixed.close()
    }

    @Test func twoVersionsOfOneNameAreToldApartByFingerprint() async throws {
        let mixed = try await MixedStore(withSecondJobVersion: true)
        let first = try StoredSchema(schema: try jobSchema(), durability: Durability<Job>(store: InMemoryStore())).fingerprint
        let second = try StoredSchema(schema: try Self.secondJobSchema(),
                                      durability: Durability<Job>(store: InMemoryStore(), schemaVersion: 2)).fingerprint
        #expect(first != second)

        let unchosen = ToolOutput()
        #expect(await unchosen.run(["machines", "--store", mixed.path, "--schema", "Job"]) == 1)
        let refusal: String = unchosen.errors.withLock { $0 }
        #expect(refusal.contains("the store holds 2 versions of Job: choose one with --fingerprint"))
        #expect(refusal.contains("\(first) (v1)"))
        #expect(refusal.contains("\(second) (v2)"))

        let chosen = ToolOutput()
        #expect(await chosen.run(["machines", "--store", mixed.path, "--schema", "Job", "--fingerprint", second]) == 0)
        #expect(firstColumn(chosen.text.withLock { $0 }) == ["k1"])

        let diagram = ToolOutput()
        #expect(await diagram.run(["states", "--store", mixed.path, "--dot", "--schema", "Job", "--fingerprint", first]) == 0)
        let dot: String = diagram.text.withLock { $0 }
        #expect(dot.contains("broken"))
        await mixed.close()
    }
}

/// The chores' schema: a second schema beside the jobs'.
func choreSchema() throws -> Schema<Chore> {
    try Schema<Chore>(initial: .idle) {
        define(.idle) { when(.go) | then(.running) }
        define(.running) { when(.go) | then(.idle) }
    }
}
