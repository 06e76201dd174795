import ActorFSM
import ActorFSMDurability
import ActorFSMSQLite
import ActorFSMTesting
import Testing
import TestSupport

/// A job that waits in a queue, runs with a deadline, and ends done or failed.
enum Job: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable { case queued, running, done, broken }
    enum Event: String, Codable, Hashable, Sendable { case start, finish, crash }
    typealias ID = String
    struct Data: Codable, Sendable, Equatable { var steps = 0 }
}

func jobSchema() throws -> Schema<Job> {
    try Schema<Job>(initial: .queued, final: [.done]) {
        define(.queued) { when(.start) | then(.running) | { context in context.data.steps += 1 } }
        define(.running) {
            when(.finish) | then(.done) | { context in context.data.steps += 1 }
            when(.crash) | then(.running) | { _ in throw Boom() }
            after(.seconds(90)) | then(.broken)
        }
        define(.broken) { when(.start) | then(.running) }
    }
}

/// The kinds of store every inspection test runs on.
enum InspectedStore: String, CaseIterable, CustomTestStringConvertible {
    case inMemory, sqlite, sqliteReader, scanning

    var testDescription: String { rawValue }
}

@Suite(.timeLimit(.minutes(1))) struct InspectionTests {
    /// Runs five jobs to known states on a store of `kind`, with a wall clock the test moves:
    /// j1 and j2 queued at 0 s, j3 running since 10 s, j4 done at 20 s, j5 failed at 30 s.
    func withJobs(_ kind: InspectedStore, _ body: (any StoreInspection, ManualClock) async throws -> Void) async throws {
        let folder = try TemporaryFolder()
        let clock = ManualClock(now: ManualClock.Instant(offset: .seconds(1_000_000)))
        let memory = InMemoryStore()
        let sqlite = kind == .sqlite || kind == .sqliteReader ? try SQLiteStore(path: folder.file("jobs.sqlite")) : nil
        let store: any MachineStore = sqlite ?? memory
        let durability = Durability<Job>(store: store, wallClock: clock)
        let jobs = try Supervisor(schema: try jobSchema(), durability: durability,
                                  configuration: SupervisorConfiguration(machine: MachineConfiguration(failurePolicy: .resume)))
        for id in ["j1", "j2", "j3", "j4", "j5"] { try await jobs.activate(id: id, data: Job.Data()) }
        clock.advance(by: .seconds(10))
        for id in ["j3", "j4", "j5"] { try await jobs.send(to: id, .start) }
        clock.advance(by: .seconds(10))
        try await jobs.send(to: "j4", .finish)
        clock.advance(by: .seconds(10))
        _ = try? await jobs.send(to: "j5", .crash)
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

    static let fingerprintOfJobs = { () -> String in
        (try? StoredSchema(schema: try jobSchema(), durability: Durability<Job>(store: InMemoryStore())).fingerprint) ?? ""
    }()

    @Test(arguments: InspectedStore.allCases)
    func countsPerStateNameEveryStateOfEverySchema(kind: InspectedStore) async throws {
        try await withJobs(kind) { store, _ in
            let counts = try await store.stateCounts()
            #expect(counts == [StateCount(fingerprint: Self.fingerprintOfJobs, state: "done", count: 1),
                               StateCount(fingerprint: Self.fingerprintOfJobs, state: "queued", count: 2),
                               StateCount(fingerprint: Self.fingerprintOfJobs, state: "running", count: 2)])
            #expect(try await store.counts(of: Self.fingerprintOfJobs) == ["done": 1, "queued": 2, "running": 2])
        }
    }

    @Test(arguments: InspectedStore.allCases)
    func statusesSayWhatEachMachineWaitsFor(kind: InspectedStore) async throws {
        try await withJobs(kind) { store, clock in
            let start = clock.nanosecondsSince1970() / 1_000_000 - 30_000
            let j3 = try #require(try await store.machine("j3"))
            #expect(j3.summary.status == .waiting)
            #expect(j3.summary.waitingUntil == start + 10_000 + 90_000)
            #expect(j3.summary.lastTransition == start + 10_000)
            #expect(try await store.machine("j4")?.summary.status == .final)
            #expect(try await store.machine("j5")?.summary.status == .failed)
            #expect(try await store.machine("j1")?.summary.status == .running)
            #expect(try await store.machine("j1")?.summary.state == "queued")
            #expect(try await store.machine("nobody") == nil)
        }
    }

    @Test(arguments: InspectedStore.allCases)
    func listingsFilterAndPageOldestFirst(kind: InspectedStore) async throws {
        try await withJobs(kind) { store, clock in
            let queued = try await store.machines(MachineQuery(state: "queued"))
            #expect(queued.machines.map(\.id) == ["j1", "j2"])
            #expect(queued.next == nil)

            let stuck = try await store.machines(MachineQuery(status: .waiting).olderThan(.seconds(15), clock: clock))
            #expect(stuck.machines.map(\.id) == ["j3"])
            #expect(try await store.machines(MachineQuery(status: .waiting).olderThan(.seconds(25), clock: clock)).machines.isEmpty)

            var pages: [[String]] = []
            var query = MachineQuery(limit: 2)
            while true {
                let page = try await store.machines(query)
                pages.append(page.machines.map(\.id))
                guard let next = page.next else { break }
                query.after = next
            }
            #expect(pages.flatMap { $0 } == ["j1", "j2", "j3", "j4", "j5"])
            #expect(pages.first == ["j1", "j2"])
            #expect(try await store.machines(MachineQuery(schemaVersion: 2)).machines.isEmpty)
            #expect(try await store.machines(MachineQuery(fingerprint: Self.fingerprintOfJobs)).machines.count == 5)
        }
    }

    @Test(arguments: InspectedStore.allCases)
    func changesComeInTheOrderTheyWereWritten(kind: InspectedStore) async throws {
        try await withJobs(kind) { store, _ in
            let changes = try await store.changes(after: 0, limit: 100)
            #expect(Array(changes.suffix(2).map(\.id)) == ["j4", "j5"])
            #expect(Set(changes.map(\.id)) == ["j1", "j2", "j3", "j4", "j5"])
            let last = try #require(changes.last?.change)
            #expect(try await store.changes(after: last, limit: 100).isEmpty)
            #expect(try await store.changes(after: 0, limit: 2).count == 2)
        }
    }

    @Test(arguments: InspectedStore.allCases)
    func aHistoryReadsWithoutTheSwiftSchema(kind: InspectedStore) async throws {
        try await withJobs(kind) { store, clock in
            let history = try await store.history(of: "j4")
            #expect(history.map(\.kind) == [.created, .completed, .completed])
            #expect(history.map(\.state) == ["queued", "running", "done"])
            #expect(history.map(\.data) == [#"{"steps":0}"#, #"{"steps":1}"#, #"{"steps":2}"#])
            #expect(history.map(\.event) == [nil, #""start""#, #""finish""#])
            #expect(history.last?.time == clock.nanosecondsSince1970() / 1_000_000 - 10_000)
            #expect(history.last?.origin == "send")
            #expect(try await store.history(of: "j5").last?.outcome == "failed")
        }
    }

    @Test func theStoreKeepsEachSchemasDescriptionOnce() async throws {
        try await withJobs(.sqlite) { store, _ in
            let schemas = try await store.storedSchemas()
            #expect(schemas.count == 1)
            let schema = try #require(schemas.first)
            #expect(schema.fingerprint == Self.fingerprintOfJobs)
            #expect(schema.description == SchemaDescription(try jobSchema()))
            #expect(schema.description.states.map(\.isFinal) == [false, false, true, false])
            #expect(schema.description.states[1].timeouts == [90_000_000_000])
        }
    }

    @Test func aReaderSeesEachCommitOfTheWriterBesideIt() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("doors.sqlite")
        let store = try SQLiteStore(path: path)
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
