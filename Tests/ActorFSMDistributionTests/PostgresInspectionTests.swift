import ActorFSM
import ActorFSMDurability
@_spi(Benchmarks) @testable import ActorFSMPostgres
import ActorFSMTesting
import Testing
import PostgresTestSupport
import TestSupport

@Suite(.serialized, needsPostgres, .timeLimit(.minutes(4))) struct PostgresInspectionTests {
    @Test func theStoreAndAReaderAnswerEveryInspection() async throws {
        try await withPostgres { server in
            let clock = jobClock()
            let store = try PostgresStore(url: server.url, namespace: "jobs")
            let jobs = try await runJobs(on: store, clock: clock)
            let reader = try PostgresReader(url: server.url, namespace: "jobs")
            for inspected in [store, reader] as [any StoreInspection] {
                try await JobChecks.countsPerStateNameEveryStateOfEverySchema(inspected, clock: clock)
                try await JobChecks.statusesSayWhatEachMachineWaitsFor(inspected, clock: clock)
                try await JobChecks.listingsFilterAndPageOldestFirst(inspected, clock: clock)
                try await JobChecks.changesComeInTheOrderTheyWereWritten(inspected, clock: clock)
                try await JobChecks.aHistoryReadsWithoutTheSwiftSchema(inspected, clock: clock)
            }
            let schemas = try await reader.storedSchemas()
            #expect(schemas.map(\.fingerprint) == [JobChecks.fingerprintOfJobs])
            #expect(schemas.first?.description == SchemaDescription(try jobSchema()))

            // Another namespace of the same database keeps nothing of these.
            await #expect(throws: StoreError.self) { _ = try await PostgresReader(url: server.url, namespace: "other").stateCounts() }
            try await JobChecks.passivationShowsUntilTheNextEvent(store, jobs: jobs)
            reader.close()
            await jobs.shutdown()
            store.close()
        }
    }

    /// A reader outlives a restart of the database: its next query reconnects, and its
    /// transactions are still read-only on the new connection.
    @Test func aReaderReadsAgainAfterTheDatabaseRestartsAndStillOnlyReads() async throws {
        try await withPostgres(readAcrossARestart)
    }

    /// The body of the test above, a function: it type-checks faster than a long closure.
    private func readAcrossARestart(on server: TemporaryPostgres) async throws {
        let clock = jobClock()
        // The reader reads beside the writer: with no delay, it sees each summary at its commit.
        let store = try PostgresStore(url: server.url, summaryDelay: .zero)
        let jobs = try await runJobs(on: store, clock: clock)
        let reader = try PostgresReader(url: server.url)
        try await JobChecks.countsPerStateNameEveryStateOfEverySchema(reader, clock: clock)
        try await serverWork {
            try server.kill()
            try server.restart()
        }
        try await JobChecks.countsPerStateNameEveryStateOfEverySchema(reader, clock: clock)

        let connection = try PostgresConnection(url: server.url, readOnly: true)
        #expect(throws: StoreError.self) { try connection.execute("CREATE TABLE written_by_a_reader (x int)") }
        try await serverWork {
            try server.kill()
            try server.restart()
        }
        connection.reset()
        let rows = try connection.query("SELECT count(*) FROM actorfsm_machines")
        #expect(rows.integer(0, 0) == 5)
        #expect(throws: StoreError.self) { try connection.execute("CREATE TABLE written_by_a_reader (x int)") }
        connection.close()
        reader.close()
        await jobs.shutdown()
        store.close()
    }

    @Test func aDatabaseWithoutSummariesGetsThemFromItsJournal() async throws {
        try await withPostgres { server in
            let clock = jobClock()
            let store = try PostgresStore(url: server.url, namespace: "old")
            let jobs = try await runJobs(on: store, clock: clock)
            await jobs.shutdown()
            // What a database an earlier release wrote holds: entries, and no summaries.
            try await store.execute("DELETE FROM actorfsm_machines; DELETE FROM actorfsm_schemas")
            store.close()
            let upgraded = try PostgresStore(url: server.url, namespace: "old")
            #expect(try await upgraded.machine("j4")?.summary.status == .running)
            _ = try Supervisor(schema: try jobSchema(), durability: Durability<Job>(store: upgraded, wallClock: clock))
            try await JobChecks.countsPerStateNameEveryStateOfEverySchema(upgraded, clock: clock)
            try await JobChecks.statusesSayWhatEachMachineWaitsFor(upgraded, clock: clock)
            try await JobChecks.listingsFilterAndPageOldestFirst(upgraded, clock: clock)
            upgraded.close()
        }
    }
}
