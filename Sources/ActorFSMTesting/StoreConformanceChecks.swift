import ActorFSM
import ActorFSMDurability
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The calling thread, as a number: a completion run from within `append` runs on its caller's.
private func callingThread() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}

/// One run of ``StoreConformance``: its checks, on machines whose ids start with `prefix`.
struct ConformanceRun: Sendable {
    let prefix: String

    private func id(_ name: String) -> String { "\(prefix)-\(name)" }

    /// Claims `machines` in `store`, as a machine does before it writes; a store used by one
    /// process grants every claim.
    private func claim(_ machines: [String], in store: any MachineStore, for check: String) async throws {
        let granted = try await store.claim(machines)
        try expect(granted == machines, check, "a claim of new machines \(machines) answered \(granted)")
    }

    private func expect(_ condition: Bool, _ check: String, _ message: @autoclosure () -> String) throws {
        if !condition { throw StoreConformanceFailure(check: check, message()) }
    }

    /// Payloads come back byte for byte; a write with an existing number replaces the entry.
    func checkBytes(in store: any MachineStore) async throws {
        let machine = id("bytes")
        try await claim([machine], in: store, for: "bytes")
        let every = (0...255).map { UInt8($0) }
        try await commit(JournalWrite(entry: entry(machine, 0, every)), to: store)
        try await commit(JournalWrite(entry: entry(machine, 1, [])), to: store)
        try await commit(JournalWrite(entry: entry(machine, 2, Array(repeating: 0, count: 70_000))), to: store)
        let read = try await store.entries(of: machine)
        try expect(read.map(\.payload) == [every, [], Array(repeating: 0, count: 70_000)], "bytes",
                   "the payloads read back differ from those written (\(read.map(\.payload.count)) bytes)")
        try await commit(JournalWrite(entry: entry(machine, 2, [7, 7])), to: store)
        let replaced = try await store.latestEntries(of: machine, count: 1)
        try expect(replaced.map(\.payload) == [[7, 7]], "bytes",
                   "a write numbered like an existing entry did not replace it: \(replaced.map(\.payload.count)) bytes")
        let missing = try await store.latestEntries(of: id("never-written"), count: 3)
        try expect(missing.isEmpty, "bytes", "a machine never written has \(missing.count) entries")
    }

    /// Newest first and at most `count`; every entry oldest first, without gaps; the batch read
    /// agrees with one machine at a time, a machine it names twice included, and so do two reads
    /// of one machine at the same time; every machine written is listed.
    func checkOrder(in store: any MachineStore) async throws {
        let machines = (0..<3).map { id("order-\($0)") }
        try await claim(machines, in: store, for: "order")
        for (index, machine) in machines.enumerated() {
            for number in 0...UInt64(4 + index) {
                try await commit(JournalWrite(entry: entry(machine, number, [UInt8(number)])), to: store)
            }
        }
        let newest = try await store.latestEntries(of: machines[0], count: 2)
        try expect(newest.map(\.sequenceNumber) == [4, 3], "order",
                   "latestEntries(count: 2) answered \(newest.map(\.sequenceNumber)), not [4, 3]")
        let all = try await store.entries(of: machines[2])
        try expect(all.map(\.sequenceNumber) == Array(0...6), "order",
                   "entries(of:) answered numbers \(all.map(\.sequenceNumber)), not 0 through 6 in order")
        try expect(all.allSatisfy { $0.machine == machines[2] }, "order", "entries(of:) answered another machine's entries")
        // A machine named twice (as reads made at the same time may name it) is answered once.
        let batch = try await store.latestEntries(of: machines + [id("order-none"), machines[1]], count: 3)
        for machine in machines {
            let single = try await store.latestEntries(of: machine, count: 3)
            try expect(batch[machine] == single, "order",
                       "the batch read of \(machine) differs from the read of that machine alone")
        }
        async let first = store.latestEntries(of: machines[0], count: 2)
        async let second = store.latestEntries(of: machines[0], count: 2)
        let (firstRead, secondRead) = try await (first, second)
        try expect(firstRead.map(\.sequenceNumber) == [4, 3] && secondRead.map(\.sequenceNumber) == [4, 3], "order",
                   "two reads of one machine at the same time answered \(firstRead.map(\.sequenceNumber)) and "
                   + "\(secondRead.map(\.sequenceNumber)), not [4, 3]")
        try expect(batch[id("order-none")]?.isEmpty ?? true, "order", "the batch read invented entries")
        let listed = Set(try await store.machineIDs())
        try expect(Set(machines).isSubset(of: listed), "order",
                   "machineIDs() lacks \(Set(machines).subtracting(listed).sorted())")
    }

    /// A write that removes the entries below it removes exactly those, in the same write.
    func checkCompaction(in store: any MachineStore) async throws {
        let machine = id("compaction")
        let other = id("compaction-other")
        try await claim([machine, other], in: store, for: "compaction")
        for number in 0...5 as ClosedRange<UInt64> {
            try await commit(JournalWrite(entry: entry(machine, number, [1])), to: store)
            try await commit(JournalWrite(entry: entry(other, number, [2])), to: store)
        }
        try await commit(JournalWrite(entry: entry(machine, 6, [3]), removingEntriesBelow: 4), to: store)
        let kept = try await store.entries(of: machine)
        try expect(kept.map(\.sequenceNumber) == [4, 5, 6], "compaction",
                   "removing entries below 4 kept \(kept.map(\.sequenceNumber)), not [4, 5, 6]")
        let untouched = try await store.entries(of: other)
        try expect(untouched.count == 6, "compaction", "compacting one machine removed another's entries")
    }

    /// Writes queued at once all complete, each once, in order, never from within `append`: a
    /// completion that runs on `append`'s own thread before it returned ran inside it. (One on
    /// the store's thread may run before the caller sees `append` return; that is allowed.)
    func checkGroupCommit(in store: any MachineStore) async throws {
        let writes = 4_000
        let machines = (0..<40).map { id("group-\($0)") }
        try await claim(machines, in: store, for: "group commit")
        let tally = Mutex(Tally())
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            for index in 0..<writes {
                let write = JournalWrite(entry: entry(machines[index % machines.count], UInt64(index / machines.count), [1]))
                let returned = Atomic<Bool>(false)
                let caller = callingThread()
                store.append(write) { error in
                    let inside = !returned.load(ordering: .acquiring) && callingThread() == caller
                    let finished = tally.withLock { tally in
                        tally.record(index, failed: error != nil, early: inside)
                        return tally.completed == writes
                    }
                    if finished { done.resume() }
                }
                returned.store(true, ordering: .releasing)
            }
        }
        let result = tally.withLock { $0 }
        try expect(result.failures == 0, "group commit", "\(result.failures) of \(writes) writes failed")
        try expect(result.early == 0, "group commit", "\(result.early) completions ran from within append")
        try expect(result.outOfOrder == 0, "group commit", "\(result.outOfOrder) completions came out of the order written")
        for machine in machines.prefix(3) {
            let stored = try await store.entries(of: machine)
            try expect(stored.map(\.sequenceNumber) == Array(0..<UInt64(writes / machines.count)), "group commit",
                       "\(machine) holds \(stored.count) entries, not \(writes / machines.count) numbered in order")
        }
    }

    /// A durable machine resumes from intact entries, and refuses a damaged one.
    func checkDamagedEntries(in store: any MachineStore) async throws {
        let id = id("damaged")
        let schema = try ConformanceCounter.schema()
        let durability = Durability<ConformanceCounter>(store: store)
        let first = try await Machine(schema: schema, id: id, data: 0, durability: durability)
        for _ in 0..<3 { try await first.send(.add) }
        await first.stop()
        let numbers = try await store.entries(of: id).map(\.sequenceNumber)
        try expect(numbers == [0, 1, 2, 3], "damaged entries",
                   "a machine's creation and three events were stored as entries \(numbers), not 0 through 3")
        let resumed = try await Machine(schema: schema, id: id, data: 0, durability: durability)
        let data = await resumed.data
        try expect(data == 3, "damaged entries", "a machine resumed with data \(data), not the 3 it wrote")
        await resumed.stop()
        try await commit(JournalWrite(entry: entry(id, 4, [0xDE, 0xAD, 0xBE, 0xEF])), to: store)
        do {
            _ = try await Machine(schema: schema, id: id, data: 0, durability: durability)
            throw StoreConformanceFailure(check: "damaged entries", "a machine resumed from a damaged entry")
        } catch let error as MachineError<ConformanceCounter> {
            let kind = (error.underlying as? DurabilityError)?.kind
            try expect(kind == .corruptEntry, "damaged entries",
                       "a damaged entry was reported as \(error), not as a corrupt entry")
        }
    }

    /// What was acknowledged is there in a new instance.
    func checkReopening(
        _ store: any MachineStore, reopen: @Sendable (any MachineStore) async throws -> any MachineStore
    ) async throws {
        let machine = id("reopening")
        try await claim([machine], in: store, for: "reopening")
        for number in 0...2 as ClosedRange<UInt64> {
            try await commit(JournalWrite(entry: entry(machine, number, [UInt8(number), 9])), to: store)
        }
        let reopened = try await reopen(store)
        let read = try await reopened.entries(of: machine)
        try expect(read.map(\.payload) == [[0, 9], [1, 9], [2, 9]], "reopening",
                   "after reopening, the store holds \(read.count) of the 3 acknowledged entries")
    }

    /// Claims exclude another instance until released; a write after losing the claim fails fenced.
    func checkFencing(
        _ store: any MachineStore, peer makePeer: @Sendable (any MachineStore) async throws -> any MachineStore
    ) async throws {
        let machine = id("fencing")
        let peer = try await makePeer(store)
        let claimed = try await store.claim([machine])
        try expect(claimed == [machine], "fencing", "a first claim of a new machine answered \(claimed)")
        try await commit(JournalWrite(entry: entry(machine, 0, [1])), to: store)
        let refused = try await peer.claim([machine])
        try expect(refused.isEmpty, "fencing", "a second instance claimed a machine the first holds")
        await store.release([machine])
        let taken = try await peer.claim([machine])
        try expect(taken == [machine], "fencing", "a second instance could not claim a released machine")
        do {
            try await commit(JournalWrite(entry: entry(machine, 1, [2])), to: store)
            throw StoreConformanceFailure(check: "fencing", "an instance wrote to a machine another one had claimed")
        } catch let error as StoreError {
            try expect(error.isFenced, "fencing", "a write without the claim failed, but not as fenced: \(error)")
        }
    }
}

/// What the completions of the group-commit check saw.
private struct Tally: Sendable {
    var completed = 0
    var failures = 0
    var early = 0
    var outOfOrder = 0
    var last = -1

    mutating func record(_ index: Int, failed: Bool, early wasEarly: Bool) {
        completed += 1
        if failed { failures += 1 }
        if wasEarly { early += 1 }
        if index < last { outOfOrder += 1 }
        last = max(last, index)
    }
}

/// The machines the damaged-entries check keeps: a counter.
enum ConformanceCounter: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable { case counting }
    enum Event: String, Codable, Hashable, Sendable { case add }
    typealias ID = String
    typealias Data = Int

    static func schema() throws -> Schema<ConformanceCounter> {
        try Schema<ConformanceCounter>(initial: .counting) {
            define(.counting) { when(.add) | then(.counting) | { context in context.data += 1 } }
        }
    }
}
