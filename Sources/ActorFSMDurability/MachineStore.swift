import ActorFSM

/// Where durable machines keep their journals: for each machine id, entries numbered by the
/// machine's sequence numbers, each an opaque payload the machine writes and reads back.
///
/// A store is a journal of bytes; the machines decide what the bytes mean (see
/// <doc:DurableMachines>). `ActorFSMSQLite` provides `SQLiteStore`, the embedded default.
///
/// **What a store promises.** ``append(_:completion:)`` makes each write durable atomically
/// (all of it or none of it, including the removal of older entries it asks for), in the order
/// the writes were made, and calls `completion` once it is; a store may commit many writes
/// together (group commit). It never runs blocking I/O on the caller's thread.
public protocol MachineStore: AnyObject, Sendable {
    /// How machines encode their states, events and data into the payloads they write.
    var codec: any DurableCodec { get }

    /// Queues `write`, and calls `completion` from a thread of the store's own once it is
    /// durable (`nil`) or has failed (the error). Writes are durable in the order they were made.
    /// It never calls `completion` before returning: callers hold a lock around it.
    func append(_ write: JournalWrite, completion: @escaping @Sendable (StoreError?) -> Void)

    /// The newest `count` entries of `machine`, newest first; empty if the store has none.
    func latestEntries(of machine: String, count: Int) async throws(StoreError) -> [JournalEntry]

    /// The newest `count` entries of each of `machines`, newest first, by machine: what a
    /// supervisor restores many machines from. A store answers it in one pass where it can; a
    /// machine named more than once is answered as if named once.
    func latestEntries(of machines: [String], count: Int) async throws(StoreError) -> [String: [JournalEntry]]

    /// Every entry of `machine`, oldest first (for audits and tests).
    func entries(of machine: String) async throws(StoreError) -> [JournalEntry]

    /// The ids of every machine with at least one entry.
    func machineIDs() async throws(StoreError) -> [String]

    /// Makes this process the one writer of `machines`, before they are read back and resumed.
    /// A store shared by several processes takes a lease on each (see `ActorFSMPostgres`); a
    /// store one process opens has nothing to do.
    ///
    /// - Returns: the machines this process now writes, in order: all of `machines` but those
    ///   another live process holds.
    func claim(_ machines: [String]) async throws(StoreError) -> [String]

    /// Gives up what ``claim(_:)`` took for `machines`, which were claimed but not restored (the
    /// store holds nothing for them, or they are final): another process may take them at once.
    func release(_ machines: [String]) async
}

/// One write of a machine's journal: an entry, and optionally the removal of the entries
/// before it (compaction). A store applies it atomically.
public struct JournalWrite: Sendable {
    /// The entry to add, or to replace if the machine has one with its sequence number.
    public let entry: JournalEntry
    /// Entries of the same machine numbered below this are removed in the same write; 0 keeps
    /// them all.
    public let removingEntriesBelow: UInt64
    /// The store's number of an event delivered through it from another process (see
    /// `ActorFSMDistribution`'s `ForwardingStore`) that this entry records, 0 if none: a store
    /// that delivers events marks it recorded in the same commit. Not part of the public
    /// contract: a store outside this package never delivers events.
    package let consumedForwardedEvent: Int64
    /// The reply to the sender of ``consumedForwardedEvent``, made from the record of the
    /// completed entry that records it: a store that delivers events removes the event and
    /// answers its sender in the same commit. `nil`: the event is only marked recorded.
    package let reply: [UInt8]?
    /// Whether, once this entry is the machine's newest, the machine has work to do with no new
    /// event: a timer or scheduled event to fire, an event it posted to itself, or the transition
    /// this intent starts. A store that several processes share restores such machines as soon
    /// as it takes them over from a dead process; the others wait for their next event.
    public let hasPendingWork: Bool
    /// The machine's state, status and times once this entry is its newest, for a store that
    /// lists machines (see ``StoreInspection``) to keep in the same commit; `nil` if the entry
    /// changes none of them (an intent).
    public let summary: MachineSummary?

    /// A write of `entry` that removes the machine's entries numbered below `removingEntriesBelow`.
    public init(
        entry: JournalEntry, removingEntriesBelow: UInt64 = 0, hasPendingWork: Bool = false, summary: MachineSummary? = nil
    ) {
        self.init(entry: entry, removingEntriesBelow: removingEntriesBelow, consumedForwardedEvent: 0, reply: nil,
                  hasPendingWork: hasPendingWork, summary: summary)
    }

    /// A write that also marks the delivered event `consumedForwardedEvent` recorded, and
    /// answers its sender with `reply` if there is one.
    package init(
        entry: JournalEntry, removingEntriesBelow: UInt64, consumedForwardedEvent: Int64, reply: [UInt8]?,
        hasPendingWork: Bool, summary: MachineSummary?
    ) {
        self.entry = entry
        self.removingEntriesBelow = removingEntriesBelow
        self.consumedForwardedEvent = consumedForwardedEvent
        self.reply = reply
        self.hasPendingWork = hasPendingWork
        self.summary = summary
    }
}

/// A stored entry of a machine's journal.
public struct JournalEntry: Sendable, Equatable {
    /// The machine's id, as text.
    public let machine: String
    /// The machine's sequence number for the event the entry is about.
    public let sequenceNumber: UInt64
    /// What the machine wrote; it checks its own checksum when it reads it back.
    public let payload: [UInt8]

    /// An entry of `machine`'s journal.
    public init(machine: String, sequenceNumber: UInt64, payload: [UInt8]) {
        self.machine = machine
        self.sequenceNumber = sequenceNumber
        self.payload = payload
    }
}

extension MachineStore {
    /// Every machine: one process writes the whole store.
    public func claim(_ machines: [String]) async throws(StoreError) -> [String] { machines }

    /// Nothing to give up.
    public func release(_ machines: [String]) async {}

    /// One ``latestEntries(of:count:)`` per machine.
    public func latestEntries(of machines: [String], count: Int) async throws(StoreError) -> [String: [JournalEntry]] {
        var entries: [String: [JournalEntry]] = [:]
        for machine in machines { entries[machine] = try await latestEntries(of: machine, count: count) }
        return entries
    }
}
