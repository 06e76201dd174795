import ActorFSM
import ActorFSMDurability
@_spi(Benchmarks) @testable import ActorFSMPostgres
import ActorFSMTesting
import Testing
import PostgresTestSupport
import TestSupport

/// Summaries written after their entries' commits on PostgreSQL: what other processes see
/// meanwhile, what becomes of those a dead process left waiting, and of those fenced off by a
/// takeover.
@Suite(.serialized, needsPostgres, .timeLimit(.minutes(4))) struct PostgresSummaryDelayTests {
    /// A delay that no test outlasts: no summary is written by the store's tick meanwhile.
    static let long = Duration.seconds(3_600)

    @Test func aReaderSeesASummaryOnlyOnceItIsWrittenAndAQueryThroughTheStoreWritesIt() async throws {
        try await withPostgres { server in
            let clock = jobClock()
            let store = try PostgresStore(url: server.url, summaryDelay: Self.long)
            let jobs = try await runJobs(on: store, clock: clock)
            let reader = try PostgresReader(url: server.url)
            try await JobChecks.aReaderSeesWaitingSummariesOnceTheStoreWritesThem(store, reader: reader, clock: clock)
            reader.close()
            await jobs.shutdown()
            store.close()
        }
    }

    @Test(arguments: [false, true])
    func summariesADeadProcessLeftWaitingAreMadeFromTheJournal(byALiveStore: Bool) async throws {
        try await withPostgres { server in
            let clock = jobClock()
            let live = byALiveStore ? try PostgresStore(url: server.url, node: "live") : nil
            let dying = try PostgresStore(url: server.url, node: "dying", summaryDelay: Self.long)
            let jobs = try await runJobs(on: dying, clock: clock)
            await jobs.shutdown()
            // Killed now: its summaries were never written, its life runs out.
            dying.abandon()
            let sql = try PostgresConnection(url: server.url)
            try sql.execute("UPDATE actorfsm_nodes SET expires_at = now() - interval '1 second' WHERE node = 'dying'")
            let dead = "SELECT count(*) FROM actorfsm_summary_writers WHERE node = 'dying'"
            #expect(try sql.query(dead).integer(0, 0) == 1)

            // A reader, before its first answer, makes them from the journal.
            let reader = try PostgresReader(url: server.url)
            try await JobChecks.countsPerStateNameEveryStateOfEverySchema(reader, clock: clock)
            try await JobChecks.statusesSayWhatEachMachineWaitsFor(reader, clock: clock)
            reader.close()
            #expect(try sql.query(dead).integer(0, 0) == 0)

            // So does a store: a live one before its next answer, a new one as it opens.
            try sql.execute("DELETE FROM actorfsm_machines; INSERT INTO actorfsm_summary_writers VALUES ('dying', 'gone')")
            let successor = try live ?? PostgresStore(url: server.url, node: "successor")
            let problems = await SummaryAudit.disagreements(in: successor)
            #expect(problems.isEmpty, "\(problems)")
            try await JobChecks.countsPerStateNameEveryStateOfEverySchema(successor, clock: clock)
            #expect(try sql.query(dead).integer(0, 0) == 0)
            sql.close()
            successor.close()
        }
    }

    @Test func aSummaryFencedOffByATakeoverNeverLandsOverTheSuccessorsMark() async throws {
        try await withPostgres { server in
            // Its summary of entry 1 waits; the process pauses and its time runs out.
            let (paused, _, sql) = try await Self.doorOpenedByAProcessPausedPastItsLife(on: server)

            let successor = try PostgresStore(url: server.url, node: "successor", summaryDelay: .zero)
            let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(successor))
            let door = try await doors.activate(id: "d", data: Door.Data())
            #expect(await door.data.openings == 1)
            #expect(await doors.passivate(id: "d"))
            #expect(try await successor.machine("d")?.summary.status == .passivated)
            #expect(try await successor.machine("d")?.sequenceNumber == 1)

            // The paused process wakes and writes its waiting summary: fenced, it changes nothing.
            let version = try sql.query("SELECT xmin::text FROM actorfsm_machines WHERE machine = 'd'").text(0, 0)
            _ = try await paused.stateCounts()
            #expect(try sql.query("SELECT xmin::text FROM actorfsm_machines WHERE machine = 'd'").text(0, 0) == version)
            #expect(try await successor.machine("d")?.summary.status == .passivated)
            let problems = await SummaryAudit.disagreements(in: successor)
            #expect(problems.isEmpty, "\(problems)")
            sql.close()
            await doors.shutdown()
            paused.close()
            successor.close()
        }
    }

    @Test func aProcessThatACatchUpTookForDeadWritesItsRowAgainWithItsNextCommit() async throws {
        try await withPostgres { server in
            // The process pauses past its life; a reader takes it for dead, makes its summary
            // from the journal, and forgets it.
            let (paused, door, sql) = try await Self.doorOpenedByAProcessPausedPastItsLife(on: server)
            let reader = try PostgresReader(url: server.url)
            #expect(try await reader.machine("d")?.sequenceNumber == 1)
            let writers = "SELECT count(*) FROM actorfsm_summary_writers WHERE node = 'paused'"
            #expect(try sql.query(writers).integer(0, 0) == 0)

            // It wakes (its lease still stands), commits, and is killed before it renews its life.
            try await door.send(.close)
            #expect(try sql.query(writers).integer(0, 0) == 1)
            paused.abandon()
            #expect(try await reader.machine("d")?.sequenceNumber == 2)
            let successor = try PostgresStore(url: server.url, node: "successor")
            let problems = await SummaryAudit.disagreements(in: successor)
            #expect(problems.isEmpty, "\(problems)")
            reader.close()
            sql.close()
            successor.close()
        }
    }

    /// A process (node `paused`, summaries held back) opens door `d` once, pauses, and its node's
    /// life runs out; with the connection that expired it.
    private static func doorOpenedByAProcessPausedPastItsLife(
        on server: TemporaryPostgres
    ) async throws -> (PostgresStore, Machine<Door>, PostgresConnection) {
        let paused = try PostgresStore(url: server.url, node: "paused", summaryDelay: long)
        let door = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(paused))
        try await door.send(.open)
        paused.pause()
        let sql = try PostgresConnection(url: server.url)
        try sql.execute("UPDATE actorfsm_nodes SET expires_at = now() - interval '1 second' WHERE node = 'paused'")
        return (paused, door, sql)
    }
}
