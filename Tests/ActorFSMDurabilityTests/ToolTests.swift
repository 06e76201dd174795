import ActorFSM
import ActorFSMDurability
import ActorFSMSQLite
import ActorFSMTesting
@testable import ActorFSMTool
import Foundation
import Testing
import TestSupport

/// What a run of the tool printed.
final class ToolOutput: Sendable {
    let text = Locked("")
    let errors = Locked("")
    /// The questions the tool asked.
    let questions = Locked<[String]>([])
    let lines: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation

    init() {
        (lines, continuation) = AsyncStream.makeStream()
    }

    /// Runs `arguments`, answering each question of the tool with `answer`.
    func run(_ arguments: [String], answer: Bool = false) async -> Int32 {
        let status = await Tool.run(arguments, output: { [self] printed in
            text.withLock { $0 += printed }
            for line in printed.split(separator: "\n") { continuation.yield(String(line)) }
        }, errors: { [self] printed in errors.withLock { $0 += printed } }, confirm: { [self] question in
            questions.withLock { $0.append(question) }
            return answer
        })
        // A command that ends lets a reader of the lines end too.
        continuation.finish()
        return status
    }
}

/// The first column of each line of `text` after its header.
func firstColumn(_ text: String) -> [String] {
    let lines: [Substring] = text.split(separator: "\n")
    var cells: [String] = []
    for line in lines.dropFirst() {
        let words: [Substring] = line.split(separator: " ")
        cells.append(words.first.map(String.init) ?? "")
    }
    return cells
}

@Suite(.timeLimit(.minutes(3))) struct ToolTests {
    /// The jobs on a SQLite store, its writer open while a test reads it.
    final class JobStore {
        let folder: TemporaryFolder
        let path: String
        let store: SQLiteStore
        let jobs: Supervisor<Job>

        init() async throws {
            folder = try TemporaryFolder()
            path = folder.file("jobs.sqlite")
            // The tool reads beside the writer: with no delay, it sees each summary at its commit.
            store = try SQLiteStore(path: path, summaryDelay: .zero)
            jobs = try await runJobs(on: store, clock: jobClock())
        }

        func close() async {
            await jobs.shutdown()
            store.close()
        }
    }

    @Test func statesPrintsTheCountsAndTheDiagramWithThem() async throws {
        let stored = try await JobStore()
        let path = stored.path
        let table = ToolOutput()
        #expect(await table.run(["states", "--store", path]) == 0)
        let lines: [Substring] = table.text.withLock { $0 }.split(separator: "\n")
        let rows: [[String]] = lines.map { line in line.split(separator: " ").map(String.init) }
        let header: [String] = rows.first ?? []
        #expect(header == ["SCHEMA", "FINGERPRINT", "STATE", "MACHINES"])
        let counts: [[String]] = rows.dropFirst().map { row in [row[3], row[4]] }
        #expect(counts == [["done", "1"], ["queued", "2"], ["running", "2"]])
        let schemas: [String] = rows.dropFirst().map { row in row[0] + " " + row[1] }
        #expect(schemas == ["Job v1", "Job v1", "Job v1"])

        let dot = ToolOutput()
        #expect(await dot.run(["states", "--store", path, "--dot"]) == 0)
        let dotText: String = dot.text.withLock { $0 }
        let queuedNode: String = #"[label="queued\n2 machines"]"#
        let brokenNode: String = #"[label="broken\n0 machines"]"#
        #expect(dotText.contains(queuedNode))
        #expect(dotText.contains(brokenNode))
        let mermaid = ToolOutput()
        #expect(await mermaid.run(["states", "--store", path, "--mermaid"]) == 0)
        let mermaidText: String = mermaid.text.withLock { $0 }
        let runningState: String = #"state "running (2 machines)" as s1"#
        #expect(mermaidText.contains(runningState))
        await stored.close()
    }

    @Test func machinesListsAFilteredPageAndSaysWhereTheNextStarts() async throws {
        let stored = try await JobStore()
        let path = stored.path
        let queued = ToolOutput()
        #expect(await queued.run(["machines", "--store", path, "--state", "queued", "--older-than", "1h"]) == 0)
        let ids: [String] = firstColumn(queued.text.withLock { $0 })
        #expect(ids == ["j1", "j2"])

        let first = ToolOutput()
        #expect(await first.run(["machines", "--store", path, "--limit", "3"]) == 0)
        let firstLines: [Substring] = first.text.withLock { $0 }.split(separator: "\n")
        let more: Substring = try #require(firstLines.last)
        #expect(more.hasPrefix("more: --after "))
        let second = ToolOutput()
        #expect(await second.run(["machines", "--store", path, "--limit", "3", "--after", String(more.dropFirst(14))]) == 0)
        let rest: [String] = firstColumn(second.text.withLock { $0 })
        #expect(rest == ["j4", "j5"])

        let failed = ToolOutput()
        #expect(await failed.run(["machines", "--store", path, "--status", "failed", "--json"]) == 0)
        let json: Data = Data(failed.text.withLock { $0 }.utf8)
        let page = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let machines: [[String: Any]] = try #require(page["machines"] as? [[String: Any]])
        let failedIDs: [String] = machines.compactMap { $0["id"] as? String }
        #expect(failedIDs == ["j5"])
        let failedState: String = machines.first?["state"] as? String ?? ""
        let running: String = "running"
        #expect(failedState == running)
        await stored.close()
    }

    @Test func historyPrintsEachEntryAsJSONToo() async throws {
        let stored = try await JobStore()
        let path = stored.path
        let json = ToolOutput()
        #expect(await json.run(["history", "j4", "--store", path, "--json"]) == 0)
        let history = try JSONDecoder().decode([HistoryEntry].self, from: Data(json.text.withLock { $0 }.utf8))
        let states: [String] = history.map { $0.state ?? "" }
        #expect(states == ["queued", "running", "done"])
        let table = ToolOutput()
        #expect(await table.run(["history", "j4", "--store", path]) == 0)
        let tableLines: [Substring] = table.text.withLock { $0 }.split(separator: "\n")
        #expect(tableLines.count == 4)
        let historyText: String = table.text.withLock { $0 }
        let finish: String = #""finish""#
        #expect(historyText.contains(finish))
        await stored.close()
    }

    @Test func watchPrintsEachMachineAsItChanges() async throws {
        let stored = try await JobStore()
        let path = stored.path
        let watch = ToolOutput()
        let running = Task { await watch.run(["watch", "--store", path, "--from-start", "--interval", "10ms"]) }
        var seen: [String] = []
        for await line in watch.lines {
            seen.append(line)
            if seen.count == 5 { break }
        }
        running.cancel()
        #expect(await running.value == 0)
        let ids: Set<String> = Set(seen.map { line in String(line.split(separator: " ")[1]) })
        #expect(ids == ["j1", "j2", "j3", "j4", "j5"])
        let last: String = seen.last ?? ""
        #expect(last.contains("j5  #2  running  failed"))
        await stored.close()
    }

    @Test(arguments: [
        (["machines"], Int32(2), "give the store with --store"),
        (["bogus", "--store", "x"], Int32(2), "unknown command bogus"),
        (["machines", "--store", "x", "--older-than", "soon"], Int32(2), "soon is not a duration"),
        (["machines", "--store", "x", "--status", "sleeping"], Int32(2), "no status sleeping"),
        (["history", "--store", "x"], Int32(2), "history needs a machine id"),
        (["watch", "--store", "x", "--interval", "1ms"], Int32(2), "--interval takes 10ms or more"),
        (["machines", "--store", "/nowhere/x.sqlite"], Int32(1), "could not open the store /nowhere/x.sqlite"),
    ])
    func aCommandLineThatCannotRunSaysWhy(arguments: [String], status: Int32, message: String) async {
        let output = ToolOutput()
        #expect(await output.run(arguments) == status)
        let errors: String = output.errors.withLock { $0 }
        #expect(errors.contains(message))
    }

    @Test func anUnknownMachineIsAFailureNamingIt() async throws {
        let stored = try await JobStore()
        let path = stored.path
        let output = ToolOutput()
        #expect(await output.run(["history", "j9", "--store", path]) == 1)
        let errors: String = output.errors.withLock { $0 }
        let expected: String = "actorfsm: the store holds no machine j9\n"
        #expect(errors == expected)
        await stored.close()
    }
}

/// Changes committed by the test, whose reads fail while `failing` is set.
final class FailingChanges: StoreInspection {
    let committed = CommittedChanges()
    let failing = Locked(false)

    func changes(after change: Int64, limit: Int) async throws(StoreError) -> [StoredMachine] {
        if failing.withLock({ $0 }) { throw StoreError("the database is restarting") }
        return try await committed.changes(after: change, limit: limit)
    }

    func storedSchemas() async throws(StoreError) -> [StoredSchema] { [] }
    func stateCounts() async throws(StoreError) -> [StateCount] { [] }
    func machines(_ query: MachineQuery) async throws(StoreError) -> MachinePage { MachinePage(machines: [], limit: 1) }
    func machine(_ id: String) async throws(StoreError) -> StoredMachine? { nil }
    func entries(of machine: String) async throws(StoreError) -> [JournalEntry] { [] }
}

@Suite(.timeLimit(.minutes(3))) struct WatchOutageTests {
    @Test func watchGoesOnWhenTheStoreFailsForAWhile() async throws {
        let store = FailingChanges()
        let invocation = try Invocation(["watch", "--store", "unused", "--from-start", "--interval", "10ms"])
        let (lines, emit) = AsyncStream<String>.makeStream()
        let context = CommandContext(invocation: invocation, store: store, output: { emit.yield("out " + $0) },
                                     errors: { emit.yield("err " + $0) })
        store.committed.commit(1, "a")
        let running = Task { try await WatchCommand(context: context).run() }
        var iterator = lines.makeAsyncIterator()
        let first: String = await iterator.next() ?? ""
        #expect(first.hasPrefix("out ") && first.contains("  a  #1  "))
        store.failing.withLock { $0 = true }
        let failure: String = await iterator.next() ?? ""
        #expect(failure.hasPrefix("err actorfsm: the database is restarting; reading again in"))
        store.committed.commit(2, "b")
        store.failing.withLock { $0 = false }
        var next: String = await iterator.next() ?? ""
        while next.hasPrefix("err ") { next = await iterator.next() ?? "" }
        #expect(next.hasPrefix("out ") && next.contains("  b  #1  "), "the change written during the outage is printed")
        running.cancel()
        _ = await running.result
    }
}
