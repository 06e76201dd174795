import ActorFSM
import ActorFSMDurability
import ActorFSMSQLite
import ActorFSMTesting
@testable import ActorFSMTool
import Foundation
import Testing
import TestSupport

/// `actorfsm pause|resume|cancel` on a SQLite file no process holds: the acts are recorded in
/// the histories, and a supervisor that opens the store honours them.
@Suite(.serialized, .timeLimit(.minutes(6))) struct ToolOperatorTests {
    /// A SQLite file, closed, with the jobs of `runJobs`: j1 and j2 queued, j3 running, j4
    /// done, j5 failed.
    func storeWithJobs() async throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        let path = folder.file("jobs.sqlite")
        let store = try SQLiteStore(path: path)
        let jobs = try await runJobs(on: store, clock: jobClock())
        await jobs.shutdown()
        store.close()
        return (folder, path)
    }

    func status(of id: String, in path: String) async throws -> MachineStatus? {
        try await SQLiteReader(path: path).machine(id)?.summary.status
    }

    @Test func aPauseFromTheToolHoldsWhenTheApplicationRestoresTheMachine() async throws {
        let (folder, path) = try await storeWithJobs()
        let pause = ToolOutput()
        #expect(await pause.run(["pause", "j3", "--store", path, "--reason", "provider outage"]) == 0)
        #expect(pause.text.withLock { $0 }.contains("Done: 1 of 1 machines"))
        #expect(try await status(of: "j3", in: path) == .paused)
        let history = ToolOutput()
        #expect(await history.run(["history", "j3", "--store", path]) == 0)
        #expect(history.text.withLock { $0 }.contains("reason: provider outage; paused"))

        let store = try SQLiteStore(path: path)
        let jobs = try Supervisor(schema: try jobSchema(), durability: Durability<Job>(store: store, wallClock: jobClock()))
        do {
            try await jobs.send(to: "j3", .finish)
            Issue.record("a machine the tool paused took an event")
        } catch {
            #expect(error.kind == .paused)
        }
        try await jobs.resume("j3", reason: "provider back")
        #expect(try await jobs.send(to: "j3", .finish).target == .done)
        await jobs.shutdown()
        store.close()
        _ = folder
    }

    @Test func filtersSelectSeveralMachinesOnlyOnceTheOperatorSaysYes() async throws {
        let (folder, path) = try await storeWithJobs()
        let dryRun = ToolOutput()
        #expect(await dryRun.run(["pause", "--store", path, "--state", "queued", "--dry-run"]) == 0)
        #expect(dryRun.text.withLock { $0 }.hasPrefix("2 machines to pause\n"))
        #expect(try await status(of: "j1", in: path) == .running)

        let refused = ToolOutput()
        #expect(await refused.run(["pause", "--store", path, "--state", "queued"], answer: false) == 1)
        #expect(refused.questions.withLock { $0 } == ["Pause 2 machines? [y/N] "])
        #expect(try await status(of: "j1", in: path) == .running)

        let paused = ToolOutput()
        #expect(await paused.run(["pause", "--store", path, "--state", "queued", "--reason", "freeze"], answer: true) == 0)
        #expect(try await status(of: "j1", in: path) == .paused)
        #expect(try await status(of: "j2", in: path) == .paused)
        let resumed = ToolOutput()
        #expect(await resumed.run(["resume", "--store", path, "--status", "paused", "--yes"]) == 0)
        #expect(resumed.questions.withLock { $0 }.isEmpty)
        #expect(try await status(of: "j1", in: path) == .running)
        let reader = try SQLiteReader(path: path)
        #expect(try await reader.history(of: "j2").compactMap(\.operation?.verb) == ["pause", "resume"])
        #expect(await SummaryAudit.disagreements(in: try SQLiteStore(path: path)).isEmpty)
        _ = folder
    }

    @Test func aCancelFromTheToolEndsTheMachineForGood() async throws {
        let (folder, path) = try await storeWithJobs()
        let cancel = ToolOutput()
        #expect(await cancel.run(["cancel", "j3", "--store", path, "--reason", "duplicate job"]) == 0)
        #expect(try await status(of: "j3", in: path) == .cancelled)
        let final = ToolOutput()
        #expect(await final.run(["cancel", "j4", "--store", path]) == 1)
        #expect(final.errors.withLock { $0 }.contains("machine j4 is in a final state, done"))

        let store = try SQLiteStore(path: path)
        let jobs = try Supervisor(schema: try jobSchema(), durability: Durability<Job>(store: store, wallClock: jobClock()))
        #expect(try await jobs.restoreAll().restored == 3)
        #expect(jobs.machine(id: "j3") == nil)
        await jobs.shutdown()
        store.close()
        _ = folder
    }

    @Test func aRetryFromTheToolRunsTheFailedEventWithTheFixedCode() async throws {
        let (folder, path) = try await storeWithJobs()
        let notFailed = ToolOutput()
        #expect(await notFailed.run(["retry", "j3", "--store", path]) == 1)
        #expect(notFailed.errors.withLock { $0 }.contains("did not fail: there is nothing to retry"))
        let retry = ToolOutput()
        #expect(await retry.run(["retry", "--store", path, "--status", "failed", "--reason", "crash fixed", "--yes"]) == 0)
        #expect(retry.text.withLock { $0 }.hasPrefix("1 machines to retry\n  j5\n"))

        // The fixed code: a crash report no longer throws.
        let fixed = try Schema<Job>(initial: .queued, final: [.done]) {
            define(.queued) { when(.start) | then(.running) | { context in context.data.steps += 1 } }
            define(.running) {
                when(.finish) | then(.done) | { context in context.data.steps += 1 }
                when(.crash) | then(.running)
                after(.seconds(90)) | then(.broken)
            }
            define(.broken) { when(.start) | then(.running) }
        }
        let store = try SQLiteStore(path: path)
        let jobs = try Supervisor(schema: fixed, durability: Durability<Job>(store: store, wallClock: jobClock()))
        var reports = jobs.reports().makeAsyncIterator()
        #expect(try await jobs.restoreAll().restored == 4)
        var crash: TransitionRecord<Job>?
        while crash == nil, let report = await reports.next() {
            if let record = report.record, record.event == .crash { crash = record }
        }
        #expect(crash?.outcome.isTransitioned == true)
        #expect(try await store.history(of: "j5").last?.operation?.reason == "crash fixed")
        await jobs.shutdown()
        store.close()
        _ = folder
    }

    /// The application holds the file but runs no supervisor of the machine's schema: the
    /// request waits, is withdrawn after `--wait`, and nothing changes.
    @Test func aRequestNoProcessTakesIsWithdrawnAndChangesNothing() async throws {
        let (folder, path) = try await storeWithJobs()
        let held = try SQLiteStore(path: path)
        let pause = ToolOutput()
        #expect(await pause.run(["pause", "j3", "--store", path, "--wait", "200ms"]) == 1)
        #expect(pause.text.withLock { $0 }.contains("Another process holds them: asked it to pause 1 machines"))
        #expect(pause.errors.withLock { $0 }.contains("j3: no process took the request within"))
        #expect(try await held.takeRequests(forSchema: "Job", limit: 10).isEmpty, "the request was withdrawn")
        held.close()
        #expect(try await status(of: "j3", in: path) == .waiting)
        _ = folder
    }

    /// The application holds the file and runs the machines: the command's acts go to it, its
    /// supervisor carries them out where the machines run, and the command prints its answers.
    @Test func theApplicationHoldingTheFileCarriesOutTheActsAndAnswers() async throws {
        let (folder, path) = try await storeWithJobs()
        let store = try SQLiteStore(path: path)
        var durability = Durability<Job>(store: store, wallClock: jobClock())
        durability.operatorRequestInterval = .milliseconds(20)
        let jobs = try Supervisor(schema: try jobSchema(), durability: durability)
        #expect(try await jobs.restoreAll().restored == 4)

        let pause = ToolOutput()
        #expect(await pause.run(["pause", "j3", "--store", path, "--reason", "provider outage"]) == 0)
        #expect(pause.text.withLock { $0 }.contains("Done: 1 of 1 machines"))
        #expect(await jobs.machine(id: "j3")?.isPaused == true)
        do {
            try await jobs.send(to: "j3", .finish)
            Issue.record("a machine the tool paused took an event")
        } catch {
            #expect(error.kind == .paused)
        }
        let resume = ToolOutput()
        #expect(await resume.run(["resume", "j3", "--store", path, "--reason", "back"]) == 0)
        #expect(try await store.history(of: "j3").compactMap(\.operation?.reason) == ["provider outage", "back"])

        let signal = ToolOutput()
        #expect(await signal.run(["signal", "j3", "--event", "finish", "--store", path, "--reason", "finished by hand"]) == 0)
        #expect(signal.text.withLock { $0 }.contains("Asked the application to signal 1 machines"))
        #expect(try await store.history(of: "j3").last?.operation?.reason == "finished by hand")
        let misnamed = ToolOutput()
        #expect(await misnamed.run(["signal", "j2", "--event", "finnish", "--store", path]) == 1)
        #expect(misnamed.errors.withLock { $0 }.contains("j2: the process that holds the machine refused: no event of Event is named finnish"))

        let refused = ToolOutput()
        #expect(await refused.run(["retry", "j1", "--store", path]) == 1)
        #expect(refused.errors.withLock { $0 }.contains("j1: "))
        #expect(refused.errors.withLock { $0 }.contains("nothing to retry"))
        await jobs.shutdown()
        store.close()
        // With no application holding the file, nobody could process the event: refused at once.
        let unheld = ToolOutput()
        #expect(await unheld.run(["signal", "j2", "--event", "finish", "--store", path, "--reason", "late"]) == 1)
        #expect(unheld.errors.withLock { $0 }.contains("no application holds"))
        #expect(!unheld.text.withLock { $0 }.contains("Asked the application"))
        _ = folder
    }

    @Test func badCommandLinesAreRefused() async throws {
        let (folder, path) = try await storeWithJobs()
        let unfiltered = ToolOutput()
        #expect(await unfiltered.run(["pause", "--store", path]) == 2)
        #expect(unfiltered.errors.withLock { $0 }.contains("pause needs a machine id, or filters"))
        let both = ToolOutput()
        #expect(await both.run(["cancel", "j1", "--store", path, "--state", "queued"]) == 2)
        let eventless = ToolOutput()
        #expect(await eventless.run(["signal", "j1", "--store", path]) == 2)
        #expect(eventless.errors.withLock { $0 }.contains("signal needs the event to send: --event NAME"))
        let pausing = ToolOutput()
        #expect(await pausing.run(["pause", "j1", "--event", "start", "--store", path]) == 2)
        let listing = ToolOutput()
        #expect(await listing.run(["machines", "--payload", "{}", "--store", path]) == 2)
        let unknown = ToolOutput()
        #expect(await unknown.run(["resume", "nobody", "--store", path]) == 1)
        #expect(unknown.errors.withLock { $0 }.contains("the store holds no machine nobody"))
        _ = folder
    }
}
