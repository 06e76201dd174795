import ActorFSM
import ActorFSMDurability
import ActorFSMSQLite
import ActorFSMTesting

/// B8's child: it finishes by itself, as B6's does, and is kept in a store.
enum StoredB8Child: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable { case working, finished }
    enum Event: String, Codable, Hashable, Sendable { case finish }
    typealias ID = String
}

/// B8's parent: `start` enters `waiting`, whose child's end is `done`; its data numbers the rounds.
enum StoredB8Parent: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable { case idle, waiting }
    enum Event: String, Codable, Hashable, Sendable { case start, done }
    typealias ID = String
    typealias Data = Int
}

/// A durable parent and one durable child, round trip by round trip, beside one durable send:
/// the time from the parent's `send(.start)` until its transition on the child's end is durable,
/// and how many commits each round takes. On a store whose every commit takes `delay`, a round
/// that takes n delays has n commits on its critical path.
func durableChildRoundTrips(
    named name: String, on store: any MachineStore, rounds: Int, commits: (() -> Int)? = nil
) async throws -> [Measurement] {
    let clock = ContinuousClock()
    let durability = Durability<StoredB8Child>(store: store)
    let children = try Supervisor(schema: try Schema<StoredB8Child>(initial: .working, final: [.finished]) {
        define(.working, running: StateTask { .finish }) { when(.finish) | then(.finished) }
    }, durability: durability)
    let parents = try Supervisor(schema: try Schema<StoredB8Parent>(initial: .idle) {
        define(.idle) { when(.start) | then(.waiting) | update { $0 += 1 } }
        define(.waiting, running: .child(in: children, id: { "child-\($0.data)" }, data: { _ in () },
                                         done: { _, _ in .done }, failed: { _ in nil })) {
            when(.done) | then(.idle)
        }
    }, durability: Durability(store: store))
    let parent = try await parents.activate(id: "parent", data: 0)
    var records = await parent.records().makeAsyncIterator()
    var latencies: [Double] = []
    let commitsBefore = commits?() ?? 0
    for round in 0..<(rounds + 5) {
        let start = clock.now
        try await parent.send(.start)
        _ = await records.next()
        _ = await records.next()
        // The parent's entry for `done` is durable once the store has committed what was
        // queued before this read.
        _ = try await store.latestEntries(of: "parent", count: 1)
        if round >= 5 { latencies.append((clock.now - start).nanoseconds / 1_000) }
    }
    let committed = (commits?() ?? 0) - commitsBefore
    await parents.shutdown()
    await children.shutdown()
    var results = [Measurement(name: name, unit: "µs/round", samples: latencies, checksum: await parent.data)]
    if commits != nil {
        let perRound = Double(committed) / Double(rounds + 5)
        results.append(Measurement(name: name + ", commits per round", unit: "commits", median: perRound, min: perRound,
                                   max: perRound, checksum: committed))
    }
    return results
}

/// B8's child rows: on SQLite (the disk the benchmark runs on), and on a store in memory whose
/// commits take 2 ms each, which counts the commits on a round's critical path.
func benchmarkB8Children(_ settings: Settings, folder: BenchmarkFolder) async throws -> [Measurement] {
    let rounds = settings.quick ? 30 : 200
    let sqlite = try SQLiteStore(path: folder.file("children.sqlite"))
    var results = try await durableChildRoundTrips(named: "B8 durable parent and child, round trip", on: sqlite,
                                                   rounds: rounds)
    results.append(try await DurableWorkloads.sendLatencies(on: sqlite, named: "B8 durable send, beside the children",
                                                            count: rounds))
    sqlite.close()
    let slow = InMemoryStore(commitDelay: .milliseconds(2))
    results += try await durableChildRoundTrips(named: "B8 durable parent and child, 2 ms commits", on: slow,
                                                rounds: settings.quick ? 20 : 50, commits: { slow.commitCount })
    return results
}
