import ActorFSM
import ActorFSMDurability
import Synchronization

/// Checks that a `MachineStore` keeps the contract durable machines rely on: any store, ours
/// or a third party's, runs it in its tests.
///
/// ```swift
/// @Test func myStoreKeepsTheContract() async throws {
///     let conformance = StoreConformance(makeStore: { try MyStore(path: temporaryPath()) })
///     try await conformance.verify()
/// }
/// ```
///
/// Each check writes to machines of its own, under ids no other run uses, so a store on a
/// shared database can run it beside other tests. The checks:
///
/// - **Bytes.** A payload comes back byte for byte, whatever it holds; a write with the
///   sequence number of an existing entry replaces it.
/// - **Order and numbers.** `latestEntries` answers newest first and at most `count`;
///   `entries(of:)` answers every entry oldest first, numbered without gaps as written; the
///   batch `latestEntries(of:count:)` agrees with one machine at a time (a machine it names
///   twice included), and so do two reads of one machine at the same time; `machineIDs()` lists
///   every machine written.
/// - **Compaction.** A write that removes the entries below it removes exactly those.
/// - **Group commit.** Thousands of writes queued at once, across machines, all complete, each
///   `completion` once, in the order the writes were made, and never from within `append`
///   (on its caller's thread, before it returned).
/// - **Damaged entries.** A durable machine over the store refuses to resume from a damaged
///   entry (`DurabilityError.corruptEntry`), and resumes its state and data from intact ones.
/// - **Reopening**, if `reopen` is given: what was acknowledged is there in a new instance.
/// - **Fencing**, if `peer` is given (a second instance on the same data, as another process
///   would open it): a machine one instance claimed cannot be claimed by the other until
///   released, and a write of an instance that lost its claim fails as fenced.
public struct StoreConformance: Sendable {
    /// Makes a store to check; each check makes its own.
    public let makeStore: @Sendable () async throws -> any MachineStore
    /// Opens `store`'s data again, as a process would after a restart; `nil` if the store
    /// keeps nothing across instances.
    public let reopen: (@Sendable (any MachineStore) async throws -> any MachineStore)?
    /// Opens a second instance on `store`'s data that takes claims of its own, as another
    /// process would; `nil` if the store is one process's only.
    public let peer: (@Sendable (any MachineStore) async throws -> any MachineStore)?

    /// A check of the stores `makeStore` makes.
    ///
    /// - Parameters:
    ///   - makeStore: makes a store; called once per check.
    ///   - reopen: opens a store's data again (the old instance is no longer used).
    ///   - peer: opens a second instance on a store's data, with claims of its own.
    public init(
        makeStore: @escaping @Sendable () async throws -> any MachineStore,
        reopen: (@Sendable (any MachineStore) async throws -> any MachineStore)? = nil,
        peer: (@Sendable (any MachineStore) async throws -> any MachineStore)? = nil
    ) {
        self.makeStore = makeStore
        self.reopen = reopen
        self.peer = peer
    }

    /// Runs every check that applies.
    ///
    /// - Throws: ``StoreConformanceFailure`` for the first broken promise, naming the check;
    ///   or the store's own error, if one of its calls failed.
    public func verify() async throws {
        let run = ConformanceRun(prefix: "conformance-\(UInt32.random(in: 0...UInt32.max))")
        try await run.checkBytes(in: makeStore())
        try await run.checkOrder(in: makeStore())
        try await run.checkCompaction(in: makeStore())
        try await run.checkGroupCommit(in: makeStore())
        try await run.checkDamagedEntries(in: makeStore())
        if let reopen { try await run.checkReopening(makeStore(), reopen: reopen) }
        if let peer { try await run.checkFencing(makeStore(), peer: peer) }
    }
}

/// A promise of the `MachineStore` contract that a store broke.
public struct StoreConformanceFailure: Error, Sendable, CustomStringConvertible {
    /// The check that found it: `bytes`, `order`, `compaction`, `group commit`,
    /// `damaged entries`, `reopening` or `fencing`.
    public let check: String
    /// What the store did, against what the contract promises.
    public let message: String

    /// A failure of `check`.
    public init(check: String, _ message: String) {
        self.check = check
        self.message = message
    }

    public var description: String { "store conformance, \(check): \(message)" }
}

/// Appends `write` to `store` and waits for its completion.
///
/// - Throws: the store's error.
func commit(_ write: JournalWrite, to store: any MachineStore) async throws(StoreError) {
    let failure = await withCheckedContinuation { (continuation: CheckedContinuation<StoreError?, Never>) in
        store.append(write) { continuation.resume(returning: $0) }
    }
    if let failure { throw failure }
}

/// An entry of `machine` numbered `number` with `payload`.
func entry(_ machine: String, _ number: UInt64, _ payload: [UInt8]) -> JournalEntry {
    JournalEntry(machine: machine, sequenceNumber: number, payload: payload)
}
