import ActorFSM
import ActorFSMDurability
import ActorFSMSQLite
import ActorFSMTesting
@testable import ActorFSMTool
import Foundation
import Testing
import TestSupport

@Suite(.serialized, .timeLimit(.minutes(6))) struct ToolPurgeTests {
    /// A SQLite file, closed, with the jobs of `runJobs` (j4 done) and `done` more jobs done,
    /// all in 1970 by their clock.
    func storeWithJobs(done: Int) async throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        let path = folder.file("jobs.sqlite")
        let store = try SQLiteStore(path: path)
        let jobs = try await runJobs(on: store, clock: jobClock())
        try await PurgeChecks.finishJobs((0..<done).map { "d\($0)" }, in: jobs)
        await jobs.shutdown()
        store.close()
        return (folder, path)
    }

    func doneCount(_ path: String) async throws -> Int {
        let reader = try SQLiteReader(path: path)
        return try await reader.counts(of: JobChecks.fingerprintOfJobs)["done"] ?? 0
    }

    @Test func aDryRunCountsAndDeletesNothing() async throws {
        let (folder, path) = try await storeWithJobs(done: 21)
        let run = ToolOutput()
        #expect(await run.run(["purge", "--store", path, "--older-than", "1d", "--dry-run"]) == 0)
        let text = run.text.withLock { $0 }
        #expect(text.hasPrefix("22 ended machines older than 24h: journal and summary to delete\n"))
        #expect(text.contains("  j4\n") && text.contains("… and 2 more"))
        #expect(run.questions.withLock { $0 }.isEmpty)
        #expect(try await doneCount(path) == 22)
        _ = folder
    }

    @Test func morethanOneMachineIsPurgedOnlyOnceTheOperatorSaysYes() async throws {
        let (folder, path) = try await storeWithJobs(done: 2)
        let refused = ToolOutput()
        #expect(await refused.run(["purge", "--store", path, "--older-than", "1h"], answer: false) == 1)
        #expect(refused.questions.withLock { $0 } == ["Delete the journal and summary of 3 machines? [y/N] "])
        #expect(refused.errors.withLock { $0 }.contains("not confirmed: nothing was purged"))
        #expect(try await doneCount(path) == 3)

        let confirmed = ToolOutput()
        #expect(await confirmed.run(["purge", "--store", path, "--older-than", "1h"], answer: true) == 0)
        #expect(confirmed.text.withLock { $0 }.contains("Purged 3 machines"))
        #expect(try await doneCount(path) == 0)
        let reader = try SQLiteReader(path: path)
        #expect(try await reader.entries(of: "j4").isEmpty)
        #expect(try await reader.entries(of: "j3").count == 2)
        _ = folder
    }

    @Test func yesSkipsTheQuestion() async throws {
        let (folder, path) = try await storeWithJobs(done: 4)
        let run = ToolOutput()
        #expect(await run.run(["purge", "--store", path, "--older-than", "90s", "--yes"]) == 0)
        #expect(run.questions.withLock { $0 }.isEmpty)
        #expect(run.text.withLock { $0 }.contains("Purged 5 machines"))
        #expect(try await doneCount(path) == 0)
        _ = folder
    }

    /// `--keep-summaries` keeps each machine listed as purged, with no history; a purge
    /// without it deletes those summaries.
    @Test func aPurgeThatKeepsSummariesLeavesTheMachinesListedAsPurged() async throws {
        let (folder, path) = try await storeWithJobs(done: 2)
        let keeping = ToolOutput()
        #expect(await keeping.run(["purge", "--store", path, "--older-than", "1h", "--keep-summaries", "--yes"]) == 0)
        #expect(keeping.text.withLock { $0 }.hasPrefix("3 ended machines older than 60m: journal to delete, summary kept as purged\n"))
        #expect(try await doneCount(path) == 3, "the kept summaries still count")
        let listed = ToolOutput()
        #expect(await listed.run(["machines", "--store", path, "--status", "purged"]) == 0)
        #expect(listed.text.withLock { $0 }.contains("d1"))
        let history = ToolOutput()
        #expect(await history.run(["history", "j4", "--store", path]) == 1)
        #expect(history.errors.withLock { $0 }.contains("machine j4 has no history: a purge deleted its journal, and kept its summary"))

        let dropping = ToolOutput()
        #expect(await dropping.run(["purge", "--store", path, "--older-than", "1h", "--yes"]) == 0)
        #expect(dropping.text.withLock { $0 }.contains("Purged 3 machines"))
        #expect(try await doneCount(path) == 0)
        let misplaced = ToolOutput()
        #expect(await misplaced.run(["machines", "--store", path, "--keep-summaries"]) == 2)
        _ = folder
    }

    @Test func aPurgeWithoutAnAgeOrOfMachinesNotFinalIsRefused() async throws {
        let (folder, path) = try await storeWithJobs(done: 0)
        let noAge = ToolOutput()
        #expect(await noAge.run(["purge", "--store", path, "--yes"]) == 2)
        #expect(noAge.errors.withLock { $0 }.contains("purge needs --older-than"))
        let running = ToolOutput()
        #expect(await running.run(["purge", "--store", path, "--older-than", "1h", "--status", "running", "--yes"]) == 2)
        #expect(running.errors.withLock { $0 }.contains("only final, cancelled and purged machines"))
        let paged = ToolOutput()
        #expect(await paged.run(["purge", "--store", path, "--older-than", "1h", "--limit", "10", "--yes"]) == 2)
        #expect(paged.errors.withLock { $0 }.contains("purge takes no --limit"))
        let missing = ToolOutput()
        #expect(await missing.run(["purge", "--store", folder.file("typo.sqlite"), "--older-than", "1h", "--yes"]) == 1)
        #expect(missing.errors.withLock { $0 }.contains("typo.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("typo.sqlite")))
        #expect(try await doneCount(path) == 1)
    }

    @Test func aFileAnotherProcessWritesIsCountedButNotPurged() async throws {
        let (folder, path) = try await storeWithJobs(done: 0)
        let writer = try SQLiteStore(path: path)
        let preview = ToolOutput()
        #expect(await preview.run(["purge", "--store", path, "--older-than", "1h", "--dry-run"]) == 0)
        #expect(preview.text.withLock { $0 }.hasPrefix("1 ended machines older than"))
        let run = ToolOutput()
        #expect(await run.run(["purge", "--store", path, "--older-than", "1h", "--yes"]) == 1)
        #expect(run.errors.withLock { $0 }.contains("open in"))
        writer.close()
        #expect(try await doneCount(path) == 1)
        _ = folder
    }
}
