import ActorFSM
import ActorFSMDurability


/// A `MachineStore` in memory, for tests: a task of its own commits writes, in order and many
/// at a time (so, as with a real store, completions never run within `append`), and a test can
/// hold commits back as a stalled disk would, slow every commit down, damage an entry, or crash
/// the store.
///
/// ```swift
/// let store = InMemoryStore()
/// let order = try await Machine(schema: orders, id: "o-7", data: Purchase(amount: 5, attempts: 0),
///                               durability: Durability(store: store))
/// try await order.send(.pay)
/// let restarted = store.crash()   // what a process that dies now leaves behind
/// let again = try await Machine(schema: orders, id: "o-7", data: Purchase(amount: 5, attempts: 0),
///                               durability: Durability(store: restarted))
/// ```
public final class InMemoryStore: MachineStore {
    enum Operation: Sendable {
        case write(JournalWrite, @Sendable (StoreError?) -> Void)
        case release
        case read(@Sendable (Result<Kept, StoreError>) -> Void)
    }

    /// What the store keeps, and a crash leaves behind: the journals, the machines' summaries
    /// and the schemas' descriptions.
    struct Kept: Sendable {
        var journals: [String: [UInt64: [UInt8]]] = [:]
        var machines: [String: StoredMachine] = [:]
        var schemas: [String: StoredSchema] = [:]
        var lastChange: Int64 = 0
    }

    struct Contents: Sendable {
        var kept = Kept()
        var isHeld = false
        /// Writes still committed before the store holds the rest; `nil` for no limit.
        var allowance: Int?
        var held: [(JournalWrite, @Sendable (StoreError?) -> Void)] = []
        var hasCrashed = false
        /// The error every operation fails with during an outage.
        var outage: StoreError?
        var commits = 0
        /// Operations waiting for the committing task, and whether it runs.
        var queue: [Operation] = []
        var isCommitting = false
    }

    /// The codec machines encode their values with.
    public let codec: any DurableCodec
    let contents: Locked<Contents>
    private let commitDelay: Duration

    /// An empty store; each commit takes `commitDelay`, as a slow disk's fsync would.
    public convenience init(codec: any DurableCodec = JSONCodec(), commitDelay: Duration = .zero) {
        self.init(codec: codec, kept: Kept(), commitDelay: commitDelay)
    }

    private init(codec: any DurableCodec, kept: Kept, commitDelay: Duration) {
        self.codec = codec
        self.contents = Locked(Contents(kept: kept))
        self.commitDelay = commitDelay
    }

    /// Queues `operation`, and starts the committing task unless it runs: one task at a time
    /// takes what has queued, so writes commit in order, many per commit.
    private func submit(_ operation: Operation) {
        let start = contents.withLock { contents -> Bool in
            contents.queue.append(operation)
            defer { contents.isCommitting = true }
            return !contents.isCommitting
        }
        guard start else { return }
        Task.detached { [contents, commitDelay] in
            while true {
                let batch = contents.withLock { contents -> [Operation] in
                    defer { contents.queue = [] }
                    if contents.queue.isEmpty { contents.isCommitting = false }
                    return contents.queue
                }
                guard !batch.isEmpty else { return }
                if commitDelay > .zero, batch.contains(where: \.isWrite) { try? await Task.sleep(for: commitDelay) }
                Self.commit(batch, in: contents)
            }
        }
    }

    private static func commit(_ batch: [Operation], in contents: Locked<Contents>) {
        var completions: [(@Sendable (StoreError?) -> Void, StoreError?)] = []
        contents.withLock { contents in
            for operation in batch {
                switch operation {
                case .write(let write, let completion):
                    if contents.hasCrashed {
                        completions.append((completion, StoreError("the store crashed")))
                    } else if let outage = contents.outage {
                        completions.append((completion, outage))
                    } else if contents.isHeld || contents.allowance == 0 {
                        contents.isHeld = true
                        contents.held.append((write, completion))
                    } else {
                        contents.allowance = contents.allowance.map { $0 - 1 }
                        apply(write, to: &contents)
                        completions.append((completion, nil))
                    }
                case .release:
                    contents.isHeld = false
                    contents.allowance = nil
                    for (write, completion) in contents.held {
                        apply(write, to: &contents)
                        completions.append((completion, nil))
                    }
                    contents.held = []
                case .read(let body):
                    // After the writes queued before it, as a real store's reads are.
                    let kept = contents.outage.map { Result.failure($0) } ?? .success(contents.kept)
                    completions.append(({ _ in body(kept) }, nil))
                }
            }
            if batch.contains(where: \.isWrite) { contents.commits += 1 }
        }
        for (completion, error) in completions { completion(error) }
    }

    private static func apply(_ write: JournalWrite, to contents: inout Contents) {
        let entry = write.entry
        var journal = contents.kept.journals[entry.machine, default: [:]]
        journal[entry.sequenceNumber] = entry.payload
        if write.removingEntriesBelow > 0 { journal = journal.filter { $0.key >= write.removingEntriesBelow } }
        contents.kept.journals[entry.machine] = journal
        if let summary = write.summary, (contents.kept.machines[entry.machine]?.sequenceNumber ?? 0) <= entry.sequenceNumber {
            contents.kept.lastChange += 1
            contents.kept.machines[entry.machine] = StoredMachine(id: entry.machine, sequenceNumber: entry.sequenceNumber,
                                                                  summary: summary, change: contents.kept.lastChange)
        }
    }

    /// Queues `write`; see `MachineStore/append(_:completion:)`.
    public func append(_ write: JournalWrite, completion: @escaping @Sendable (StoreError?) -> Void) {
        submit(.write(write, completion))
    }

    /// The newest `count` entries of `machine`, newest first.
    public func latestEntries(of machine: String, count: Int) async throws(StoreError) -> [JournalEntry] {
        Array(try await entries(of: machine).reversed().prefix(count))
    }

    /// Every committed entry of `machine`, oldest first, once the writes queued before the
    /// call are committed (or held).
    public func entries(of machine: String) async throws(StoreError) -> [JournalEntry] {
        try await read { kept in
            (kept.journals[machine] ?? [:]).sorted { $0.key < $1.key }.map {
                JournalEntry(machine: machine, sequenceNumber: $0.key, payload: $0.value)
            }
        }
    }

    /// The ids of every machine with a committed entry.
    public func machineIDs() async throws(StoreError) -> [String] {
        try await read { kept in kept.journals.filter { !$0.value.isEmpty }.keys.sorted() }
    }

    func read<Value: Sendable>(
        _ body: @escaping @Sendable (Kept) -> Value
    ) async throws(StoreError) -> Value {
        let result = await withCheckedContinuation { continuation in
            submit(.read { kept in continuation.resume(returning: kept.map(body)) })
        }
        return try result.get()
    }

    /// Fails every write and read from now on with `error`, as a full disk or a database
    /// server that restarts would, until ``endOutage()``. Unlike ``crash()``, what the store
    /// holds stays, and it works again afterwards.
    public func beginOutage(_ error: StoreError = StoreError("the store is unavailable")) {
        contents.withLock { $0.outage = error }
    }

    /// Ends the outage ``beginOutage(_:)`` began: writes and reads succeed again.
    public func endOutage() {
        contents.withLock { $0.outage = nil }
    }

    /// Holds commits back until ``releaseCommits()``, after committing `afterWrites` more
    /// writes: later writes wait, as on a stalled disk, and ``crash()`` loses them.
    public func holdCommits(afterWrites: Int = 0) {
        contents.withLock { contents in
            if afterWrites == 0 { contents.isHeld = true } else { contents.allowance = afterWrites }
        }
    }

    /// Commits the writes held back, and commits at once again.
    public func releaseCommits() {
        submit(.release)
    }

    /// How many batches of writes the store has committed: concurrent writes share one.
    public var commitCount: Int { contents.withLock { $0.commits } }

    /// What a process that dies now leaves behind: a new store with the committed entries only.
    /// This store then fails every write, held or new, as a dead process's machines would.
    public func crash() -> InMemoryStore {
        let (kept, held) = contents.withLock { contents in
            contents.hasCrashed = true
            defer { contents.held = [] }
            return (contents.kept, contents.held)
        }
        for (_, completion) in held { completion(StoreError("the store crashed")) }
        return InMemoryStore(codec: codec, kept: kept, commitDelay: .zero)
    }

    /// Flips a byte of an entry's payload, as damage on disk would.
    public func damage(machine: String, sequenceNumber: UInt64) {
        contents.withLock { contents in
            guard var payload = contents.kept.journals[machine]?[sequenceNumber], !payload.isEmpty else { return }
            payload[payload.count / 2] ^= 0x5A
            contents.kept.journals[machine]?[sequenceNumber] = payload
        }
    }
}

extension InMemoryStore.Operation {
    var isWrite: Bool { if case .write = self { true } else { false } }
}

extension InMemoryStore: StoreInspection, SchemaRecording, PassivationRecording {
    /// Every schema recorded.
    public func storedSchemas() async throws(StoreError) -> [StoredSchema] {
        try await read { kept in kept.schemas.values.sorted { $0.fingerprint < $1.fingerprint } }
    }

    /// How many machines are in each state, per schema.
    public func stateCounts() async throws(StoreError) -> [StateCount] {
        try await read { kept in
            var counts: [String: Int] = [:]
            for machine in kept.machines.values { counts[machine.summary.fingerprint + "\u{0}" + machine.summary.state, default: 0] += 1 }
            return counts.sorted { $0.key < $1.key }.map { key, count in
                let parts = key.split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
                return StateCount(fingerprint: String(parts[0]), state: String(parts[1]), count: count)
            }
        }
    }

    /// One page of the machines `query` lets through.
    public func machines(_ query: MachineQuery) async throws(StoreError) -> MachinePage {
        try await read { kept in
            let listed = kept.machines.values.filter { machine in
                query.admits(machine) && (query.after.map { MachineCursor(machine) > $0 } ?? true)
            }.sorted { MachineCursor($0) < MachineCursor($1) }
            return MachinePage(machines: Array(listed.prefix(query.limit)), limit: query.limit)
        }
    }

    /// The machine with key `id`, if the store holds it.
    public func machine(_ id: String) async throws(StoreError) -> StoredMachine? {
        try await read { kept in kept.machines[id] }
    }

    /// Machines whose summary changed after change number `change`, in order.
    public func changes(after change: Int64, limit: Int) async throws(StoreError) -> [StoredMachine] {
        try await read { kept in
            Array(kept.machines.values.filter { $0.change > change }.sorted { $0.change < $1.change }.prefix(limit))
        }
    }

    /// Marks `machines` passivated where their newest entry is the one given.
    public func recordPassivated(_ machines: [(id: String, sequenceNumber: UInt64)]) {
        contents.withLock { contents in
            for (id, number) in machines {
                guard var machine = contents.kept.machines[id], machine.sequenceNumber == number,
                      machine.summary.status == .running || machine.summary.status == .waiting
                else { continue }
                contents.kept.lastChange += 1
                machine.summary.status = .passivated
                machine.change = contents.kept.lastChange
                contents.kept.machines[id] = machine
            }
        }
    }

    /// Keeps `schema` under its fingerprint, unless one is there.
    public func record(_ schema: StoredSchema) {
        contents.withLock { contents in
            if contents.kept.schemas[schema.fingerprint] == nil { contents.kept.schemas[schema.fingerprint] = schema }
        }
    }
}
