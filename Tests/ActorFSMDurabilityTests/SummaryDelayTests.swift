import ActorFSM
import ActorFSMDurability
import ActorFSMSQLite
import ActorFSMTesting
import Foundation
import Testing
import TestSupport

/// Summaries written after their entries' commits: what a reader sees meanwhile, and what an
/// open after a crash makes of the summaries that were still waiting.
@Suite(.timeLimit(.minutes(3))) struct SummaryDelayTests {
    /// A delay that no test outlasts: no summary is written by the store's tick meanwhile.
    static let long = Duration.seconds(3_600)

    @Test func aReaderSeesASummaryOnlyOnceItIsWrittenAndAQueryThroughTheStoreWritesIt() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("jobs.sqlite")
        let store = try SQLiteStore(path: path, summaryDelay: Self.long)
        let clock = jobClock()
        let jobs = try await runJobs(on: store, clock: clock)
        let reader = try SQLiteReader(path: path)
        try await JobChecks.aReaderSeesWaitingSummariesOnceTheStoreWritesThem(store, reader: reader, clock: clock)
        reader.close()
        await jobs.shutdown()
        store.close()
    }

    @Test(arguments: [false, true])
    func summariesStillWaitingWhenTheWriterDiedAreWrittenBeforeAnythingReadsThem(byReader: Bool) async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("jobs.sqlite")
        let store = try SQLiteStore(path: path, summaryDelay: Self.long)
        let clock = jobClock()
        let jobs = try await runJobs(on: store, clock: clock)
        // The files as a process killed now leaves them: every commit is in the log, no
        // summary is written.
        let crashed = folder.file("crashed.sqlite")
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: path + suffix, toPath: crashed + suffix) }
        await jobs.shutdown()
        store.close()

        if byReader {
            let reader = try SQLiteReader(path: crashed)
            try await JobChecks.countsPerStateNameEveryStateOfEverySchema(reader, clock: clock)
            try await JobChecks.statusesSayWhatEachMachineWaitsFor(reader, clock: clock)
            reader.close()
        }
        let reopened = try SQLiteStore(path: crashed, summaryDelay: Self.long)
        let problems = await SummaryAudit.disagreements(in: reopened)
        #expect(problems.isEmpty, "\(problems)")
        try await JobChecks.statusesSayWhatEachMachineWaitsFor(reopened, clock: clock)
        reopened.close()
    }

    @Test func aStoreClosedWithSummariesWaitingWritesThemAsItCloses() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("jobs.sqlite")
        let store = try SQLiteStore(path: path, summaryDelay: Self.long)
        let clock = jobClock()
        let jobs = try await runJobs(on: store, clock: clock)
        await jobs.shutdown()
        store.close()
        let reader = try SQLiteReader(path: path)
        try await JobChecks.countsPerStateNameEveryStateOfEverySchema(reader, clock: clock)
        try await JobChecks.statusesSayWhatEachMachineWaitsFor(reader, clock: clock)
        reader.close()
    }

    @Test func aPassivationMarkIsNotOverwrittenByASummaryThatWaited() async throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteStore(path: folder.file("jobs.sqlite"), summaryDelay: Self.long)
        let clock = jobClock()
        let jobs = try await runJobs(on: store, clock: clock)
        let newest = try #require(try await store.latestEntries(of: "j3", count: 1).first)
        store.recordPassivated([(id: "j3", sequenceNumber: newest.sequenceNumber)])
        #expect(try await store.machine("j3")?.summary.status == .passivated)
        await jobs.shutdown()
        store.close()
    }
}
