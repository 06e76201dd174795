import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Testing

/// A job that waits in a queue, runs with a deadline, and ends done or failed.
package enum Job: MachineDefinition {
    package enum State: String, Codable, Hashable, Sendable { case queued, running, done, broken }
    package enum Event: String, Codable, Hashable, Sendable { case start, finish, crash }
    package typealias ID = String
    package struct Data: Codable, Sendable, Equatable {
        package var steps = 0
        package init() {}
    }
}

package func jobSchema() throws -> Schema<Job> {
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


/// The jobs every store's inspection is checked with, on a wall clock the test moves: j1 and
/// j2 queued at 0 s, j3 running since 10 s, j4 done at 20 s, j5 failed at 30 s.
package func runJobs(on store: any MachineStore, clock: ManualClock) async throws -> Supervisor<Job> {
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
    return jobs
}

/// A clock for ``runJobs(on:clock:)``, well after 1970.
package func jobClock() -> ManualClock {
    ManualClock(now: ManualClock.Instant(offset: .seconds(1_000_000)))
}

/// What every store's inspection must answer about the jobs of ``runJobs(on:clock:)``.
package enum JobChecks {
    package static let fingerprintOfJobs = { () -> String in
        (try? StoredSchema(schema: try jobSchema(), durability: Durability<Job>(store: InMemoryStore())).fingerprint) ?? ""
    }()

    /// A reader beside a store whose summaries all wait (the jobs' entries are committed): it
    /// sees none until a query through the store writes them, and then every one.
    package static func aReaderSeesWaitingSummariesOnceTheStoreWritesThem(
        _ store: any MachineStore & StoreInspection, reader: any StoreInspection, clock: ManualClock
    ) async throws {
        #expect(try await reader.stateCounts().isEmpty)
        #expect(try await store.entries(of: "j4").count == 3)
        try await countsPerStateNameEveryStateOfEverySchema(store, clock: clock)
        try await countsPerStateNameEveryStateOfEverySchema(reader, clock: clock)
        try await statusesSayWhatEachMachineWaitsFor(reader, clock: clock)
    }

    package static func countsPerStateNameEveryStateOfEverySchema(_ store: any StoreInspection, clock: ManualClock) async throws {
        let counts = try await store.stateCounts()
        let expected: [StateCount] = [StateCount(fingerprint: fingerprintOfJobs, state: "done", count: 1),
                                      StateCount(fingerprint: fingerprintOfJobs, state: "queued", count: 2),
                                      StateCount(fingerprint: fingerprintOfJobs, state: "running", count: 2)]
        #expect(counts == expected)
        let byName: [String: Int] = try await store.counts(of: fingerprintOfJobs)
        #expect(byName == ["done": 1, "queued": 2, "running": 2])
    }

    package static func statusesSayWhatEachMachineWaitsFor(_ store: any StoreInspection, clock: ManualClock) async throws {
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

    package static func listingsFilterAndPageOldestFirst(_ store: any StoreInspection, clock: ManualClock) async throws {
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
        let everyMachine: [String] = ["j1", "j2", "j3", "j4", "j5"]
        #expect(Array(pages.joined()) == everyMachine)
        #expect(pages.first == ["j1", "j2"])
        #expect(try await store.machines(MachineQuery(schemaVersion: 2)).machines.isEmpty)
        #expect(try await store.machines(MachineQuery(fingerprint: fingerprintOfJobs)).machines.count == 5)
    }

    package static func changesComeInTheOrderTheyWereWritten(_ store: any StoreInspection, clock: ManualClock) async throws {
        let changes = try await store.changes(after: 0, limit: 100)
        #expect(Array(changes.suffix(2).map(\.id)) == ["j4", "j5"])
        #expect(Set(changes.map(\.id)) == ["j1", "j2", "j3", "j4", "j5"])
        let last = try #require(changes.last?.change)
        #expect(try await store.changes(after: last, limit: 100).isEmpty)
        #expect(try await store.changes(after: 0, limit: 2).count == 2)
    }

    package static func aHistoryReadsWithoutTheSwiftSchema(_ store: any StoreInspection, clock: ManualClock) async throws {
        let history = try await store.history(of: "j4")
        let kinds: [HistoryEntry.Kind] = history.map(\.kind)
        #expect(kinds == [.created, .completed, .completed])
        let states: [String?] = history.map(\.state)
        #expect(states == ["queued", "running", "done"])
        let data: [String?] = history.map(\.data)
        let expectedData: [String?] = [#"{"steps":0}"#, #"{"steps":1}"#, #"{"steps":2}"#]
        #expect(data == expectedData)
        let events: [String?] = history.map(\.event)
        let expectedEvents: [String?] = [nil, #""start""#, #""finish""#]
        #expect(events == expectedEvents)
        #expect(history.last?.time == clock.nanosecondsSince1970() / 1_000_000 - 10_000)
        #expect(history.last?.origin == "send")
        #expect(try await store.history(of: "j5").last?.outcome == "failed")
    }
}

extension JobChecks {
    /// A passivated running job shows as passivated until its next event; a final one stays final.
    package static func passivationShowsUntilTheNextEvent(_ store: any StoreInspection, jobs: Supervisor<Job>) async throws {
        #expect(await jobs.passivate(id: "j1"))
        #expect(await jobs.passivate(id: "j4"))
        #expect(await jobs.passivateIdle(longerThan: .zero) >= 1)
        let marked = try await store.machines(MachineQuery(status: .passivated)).machines.map(\.id)
        #expect(marked.contains("j1") && !marked.contains("j4") && !marked.contains("j5"))
        #expect(try await store.machine("j4")?.summary.status == .final)
        #expect(try await store.machine("j5")?.summary.status == .failed)
        try await jobs.send(to: "j1", .start)
        #expect(try await store.machine("j1")?.summary.status == .waiting)
        #expect(try await store.machine("j1")?.summary.state == "running")
    }
}
