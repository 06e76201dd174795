import ActorFSM
import ActorFSMDurability
@_spi(Benchmarks) import ActorFSMSQLite
import ActorFSMTesting
import Foundation
import Testing
import TestSupport

/// The kinds of store every inspection test runs on.
enum InspectedStore: String, CaseIterable, CustomTestStringConvertible {
    case inMemory, sqlite, sqliteReader, scanning

    var testDescription: String { rawValue }
}

@Suite(.timeLimit(.minutes(3))) struct InspectionTests {
    /// Runs five jobs to known states on a store of `kind`, with a wall clock the test moves:
    /// j1 and j2 queued at 0 s, j3 running since 10 s, j4 done at 20 s, j5 failed at 30 s.
    func withJobs(_ kind: InspectedStore, _ body: (any StoreInspection, ManualClock) async throws -> Void) async throws {
        let folder = try TemporaryFolder()
        let clock = jobClock()
        let memory = InMemoryStore()
        // A reader beside the writer sees each summary at its commit when the writer has no delay.
        let delay: Duration = kind == .sqliteReader ? .zero : .milliseconds(500)
        let sqlite = kind == .sqlite || kind == .sqliteReader
            ? try SQLiteStore(path: folder.file("jobs.sqlite"), summaryDelay: delay) : nil
        let store: any MachineStore = sqlite ?? memory
        let durability = Durability<Job>(store: store, wallClock: clock)
        let jobs = try await runJobs(on: store, clock: clock)
        let inspected: any StoreInspection = switch kind {
        case .inMemory: memory
        case .sqlite: sqlite!
        case .sqliteReader: try SQLiteReader(path: folder.file("jobs.sqlite"))
        case .scanning: ScanningInspection(store: memory, schemas: [try StoredSchema(schema: try jobSchema(), durability: durability)])
        }
        try await body(inspected, clock)
        await jobs.shutdown()
        sqlite?.close()
    }

    @Test(arguments: InspectedStore.allCases)
    func countsPerStateNameEveryStateOfEverySchema(kind: InspectedStore) async throws {
        try await withJobs(kind) { store, clock in
            try await JobChecks.countsPerStateNameEveryStateOfEverySchema(store, clock: clock)
        }
    }

    @Test(arguments: InspectedStore.allCases)
    func statusesSayWhatEachMachineWaitsFor(kind: InspectedStore) async throws {
        try await withJobs(kind) { store, clock in
            try await JobChecks.statusesSayWhatEachMachineWaitsFor(store, clock: clock)
        }
    }

    @Test(arguments: InspectedStore.allCases)
    func listingsFilterAndPageOldestFirst(kind: InspectedStore) async throws {
        try await withJobs(kind) { store, clock in
            try await JobChecks.listingsFilterAndPageOldestFirst(store, clock: clock)
        }
    }

    @Test(arguments: InspectedStore.allCases)
    func changesComeInTheOrderTheyWereWritten(kind: InspectedStore) async throws {
        try await withJobs(kind) { store, clock in
            try await JobChecks.changesComeInTheOrderTheyWereWritten(store, clock: clock)
        }
    }

    @Test(arguments: InspectedStore.allCases)
    func aHistoryReadsWithoutTheSwiftSchema(kind: InspectedStore) async throws {
        try await withJobs(kind) { store, clock in
            try await JobChecks.aHistoryReadsWithoutTheSwiftSchema(store, clock: clock)
        }
    }

    @Test(arguments: [InspectedStore.inMemory, .sqlite])
    func passivatedMachinesAreMarkedUntilTheirNextEvent(kind: InspectedStore) async throws {
        let folder = try TemporaryFolder()
        let sqlite = kind == .sqlite ? try SQLiteStore(path: folder.file("jobs.sqlite")) : nil
        let store: any MachineStore & StoreInspection = sqlite ?? InMemoryStore()
        let jobs = try await runJobs(on: store, clock: jobClock())
        try await JobChecks.passivationShowsUntilTheNextEvent(store, jobs: jobs)
        await jobs.shutdown()
        sqlite?.close()
    }

    @Test func theStoreKeepsEachSchemasDescriptionOnce() async throws {
        try await withJobs(.sqlite) { store, _ in try await checkStoredSchemas(of: store) }
    }

    /// The body of the test above, a function: it type-checks faster than a long closure.
    private func checkStoredSchemas(of store: any StoreInspection) async throws {
        let schemas = try await store.storedSchemas()
        #expect(schemas.count == 1)
        let schema = try #require(schemas.first)
        #expect(schema.fingerprint == JobChecks.fingerprintOfJobs)
        #expect(schema.description == SchemaDescription(try jobSchema()))
        #expect(schema.description.states.map(\.isFinal) == [false, false, true, false])
        #expect(schema.description.states[1].timeouts == [90_000_000_000])
    }

    @Test func aReaderSeesEachCommitOfTheWriterBesideIt() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("doors.sqlite")
        // Its summaries too, with no delay; with one, `SummaryDelayTests` shows what it sees.
        let store = try SQLiteStore(path: path, summaryDelay: .zero)
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        try await doors.activate(id: "d1", data: Door.Data())
        let reader = try SQLiteReader(path: path)
        #expect(try await reader.counts(of: try #require(try await reader.storedSchemas().first).fingerprint) == ["closed": 1])
        try await doors.send(to: "d1", .open)
        #expect(try await reader.machine("d1")?.summary.state == "open")
        #expect(try await reader.history(of: "d1").count == 2)
        #expect(throws: StoreError.self) { _ = try SQLiteReader(path: folder.file("missing.sqlite")) }
        reader.close()
        await doors.shutdown()
        store.close()
    }
}

/// A store whose changes the test commits, in any order of their numbers.
final class CommittedChanges: StoreInspection {
    let committed = Locked<[StoredMachine]>([])

    func commit(_ change: Int64, _ id: String) {
        let summary = MachineSummary(state: "s", status: .running, fingerprint: "f", schemaVersion: 1, lastTransition: change)
        committed.withLock { $0.append(StoredMachine(id: id, sequenceNumber: 1, summary: summary, change: change)) }
    }

    func changes(after change: Int64, limit: Int) async throws(StoreError) -> [StoredMachine] {
        let after: [StoredMachine] = committed.withLock { $0 }.filter { $0.change > change }
        return Array(after.sorted { ($0.change, $0.id) < ($1.change, $1.id) }.prefix(limit))
    }

    func storedSchemas() async throws(StoreError) -> [StoredSchema] { [] }
    func stateCounts() async throws(StoreError) -> [StateCount] { [] }
    func machines(_ query: MachineQuery) async throws(StoreError) -> MachinePage { MachinePage(machines: [], limit: 1) }
    func machine(_ id: String) async throws(StoreError) -> StoredMachine? { nil }
    func entries(of machine: String) async throws(StoreError) -> [JournalEntry] { [] }
}

@Suite struct ChangeFollowerTests {
    @Test func aChangeCommittedAfterAHigherNumberIsReturnedOnce() async throws {
        let store = CommittedChanges()
        store.commit(1, "a")
        store.commit(3, "c")
        var follower = ChangeFollower(store: store)
        #expect(try await follower.next().map(\.id) == ["a", "c"])
        store.commit(2, "b")
        store.commit(4, "d")
        #expect(try await follower.next().map(\.id) == ["b", "d"])
        #expect(try await follower.next().isEmpty)
    }

    @Test func aFollowerFromNowSkipsWhatIsThereAndPagesThroughBursts() async throws {
        let store = CommittedChanges()
        for number in 1...5 { store.commit(Int64(number), "old-\(number)") }
        var follower = try await ChangeFollower.fromNow(store: store)
        #expect(try await follower.next().isEmpty)
        for number in 6...30 { store.commit(Int64(number), "new-\(number)") }
        #expect(try await follower.next(limit: 10).map(\.change) == Array(6...15))
        #expect(try await follower.next(limit: 100).map(\.change) == Array(16...30))
    }

    @Test func changesThatShareANumberAreEachReturnedOnceWhateverThePageSize() async throws {
        let store = CommittedChanges()
        // A store that numbers changes by time: seven machines changed in the same millisecond.
        for id in ["a", "b", "c", "d", "e", "f", "g"] { store.commit(7, id) }
        store.commit(8, "h")
        for lookback: Int64 in [0, 10_000] {
            var follower = ChangeFollower(store: store, lookback: lookback)
            var seen: [String] = []
            for _ in 0..<6 { seen += try await follower.next(limit: 3).map(\.id) }
            #expect(seen == ["a", "b", "c", "d", "e", "f", "g", "h"], "lookback \(lookback)")
        }
        var scanning = ChangeFollower(store: store, lookback: 0)
        _ = try await scanning.next(limit: 100)
        store.commit(8, "i")
        let late: [String] = try await scanning.next(limit: 2).map(\.id)
        #expect(late == ["i"], "a change with the newest number seen is still found")
    }

    @Test func numbersBeyondTheLookbackAreNotReadAgain() async throws {
        let store = CommittedChanges()
        store.commit(100, "late-reader")
        var follower = ChangeFollower(store: store, lookback: 10)
        #expect(try await follower.next().count == 1)
        store.commit(50, "too-late")
        store.commit(95, "in-time")
        #expect(try await follower.next().map(\.id) == ["in-time"])
    }
}

/// A chore: a second schema with a state named as one of the jobs'.
enum Chore: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable { case idle, running }
    enum Event: String, Codable, Hashable, Sendable { case go }
    typealias ID = String
}

@Suite(.timeLimit(.minutes(3))) struct SharedStoreInspectionTests {
    @Test func aStateNamedInTwoSchemasListsTheMachinesOfBothInTimeOrder() async throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteStore(path: folder.file("shared.sqlite"))
        let clock = jobClock()
        let jobs = try await runJobs(on: store, clock: clock)
        clock.advance(by: .seconds(10))
        let chores = try Supervisor(schema: try Schema<Chore>(initial: .idle) { define(.idle) { when(.go) | then(.running) }; define(.running) { when(.go) | then(.idle) } },
                                    durability: Durability(store: store, wallClock: clock))
        try await chores.activate(id: "c1")
        try await chores.send(to: "c1", .go)
        let reader = try SQLiteReader(path: folder.file("shared.sqlite"))
        for inspected in [store, reader] as [any StoreInspection] {
            #expect(try await inspected.machines(MachineQuery(state: "running")).machines.map(\.id) == ["j3", "j5", "c1"])
            #expect(try await inspected.machines(MachineQuery(state: "running", limit: 2)).machines.map(\.id) == ["j3", "j5"])
            let counts = try await inspected.stateCounts().filter { $0.state == "running" }
            #expect(counts.map(\.count).sorted() == [1, 2])
            let fingerprints: Set<String> = Set(counts.map(\.fingerprint))
            #expect(fingerprints.count == 2)
            let names: [String] = try await inspected.storedSchemas().map(\.description.name)
            #expect(names.sorted() == ["Chore", "Job"])
        }
        reader.close()
        await chores.shutdown()
        await jobs.shutdown()
        store.close()
    }
}

@Suite(.timeLimit(.minutes(3))) struct SummaryFillingTests {
    @Test func aFileWithoutSummariesGetsThemFromItsJournalWhenOpenedForWriting() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("old.sqlite")
        let clock = jobClock()
        let store = try SQLiteStore(path: path)
        let jobs = try await runJobs(on: store, clock: clock)
        await jobs.shutdown()
        try await store.execute("DROP TABLE machines; DROP TABLE schemas")
        store.close()
        let before = try SQLiteReader(path: path)
        await #expect(throws: StoreError.self) { _ = try await before.stateCounts() }
        before.close()

        let reopened = try SQLiteStore(path: path)
        // Without the schema, a final machine cannot be told from a running one.
        #expect(try await reopened.machine("j4")?.summary.status == .running)
        // A supervisor of the schema describes it, and the filled rows are named again.
        _ = try Supervisor(schema: try jobSchema(), durability: Durability<Job>(store: reopened, wallClock: clock))
        try await JobChecks.countsPerStateNameEveryStateOfEverySchema(reopened, clock: clock)
        try await JobChecks.statusesSayWhatEachMachineWaitsFor(reopened, clock: clock)
        try await JobChecks.listingsFilterAndPageOldestFirst(reopened, clock: clock)
        reopened.close()
    }
}

extension InspectionTests {
    @Test func aListedMachineIsOneFlatJSONObjectAndReadsBack() throws {
        let waiting = StoredMachine(
            id: "1042", sequenceNumber: 3,
            summary: MachineSummary(state: "payment pending", status: .waiting, fingerprint: "196ba2580d163bf8", schemaVersion: 2,
                                    lastTransition: 1_795_756_840_278, waitingUntil: 1_795_756_900_000),
            change: 917)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(waiting), as: UTF8.self)
        let expected = #"{"change":917,"fingerprint":"196ba2580d163bf8","id":"1042","lastTransition":1795756840278,"#
            + #""schemaVersion":2,"sequenceNumber":3,"state":"payment pending","status":"waiting","waitingUntil":1795756900000}"#
        #expect(text == expected)
        let decoded = try JSONDecoder().decode(StoredMachine.self, from: Data(text.utf8))
        #expect(decoded == waiting)

        var running = waiting
        running.summary.status = .running
        running.summary.waitingUntil = nil
        let runningText = String(decoding: try encoder.encode(running), as: UTF8.self)
        #expect(!runningText.contains("waitingUntil"))
        let runningDecoded = try JSONDecoder().decode(StoredMachine.self, from: Data(runningText.utf8))
        #expect(runningDecoded == running)
    }
}
