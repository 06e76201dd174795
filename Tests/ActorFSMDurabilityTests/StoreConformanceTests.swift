import ActorFSM
import ActorFSMDurability
import ActorFSMSQLite
import ActorFSMTesting
import Foundation
import Synchronization
import Testing
import TestSupport

/// The package's single-process stores, and one written as a third party would, keep the store
/// contract (`PostgresConformanceTests` checks the shared store).
@Suite(.timeLimit(.minutes(4))) struct StoreConformanceTests {
    @Test func theInMemoryStoreKeepsTheContract() async throws {
        try await StoreConformance(makeStore: { InMemoryStore() }).verify()
    }

    @Test func theSQLiteStoreKeepsTheContract() async throws {
        let folder = try TemporaryFolder()
        let base = folder.file("store")
        let files = Atomic<Int>(0)
        let conformance = StoreConformance(
            makeStore: { try SQLiteStore(path: "\(base)-\(files.add(1, ordering: .relaxed).newValue).sqlite") },
            reopen: { store in
                let store = store as! SQLiteStore
                store.close()
                return try SQLiteStore(path: store.path)
            })
        try await conformance.verify()
        withExtendedLifetime(folder) {}
    }

    @Test func aStoreWrittenOutsideThePackageKeepsTheContract() async throws {
        try await StoreConformance(makeStore: { DictionaryStore() }).verify()
    }

    @Test func aStoreThatLosesWritesFailsTheCheck() async throws {
        let failure = await #expect(throws: StoreConformanceFailure.self) {
            try await StoreConformance(makeStore: { DictionaryStore(keepingEveryOther: true) }).verify()
        }
        #expect(failure?.check == "bytes")
    }

    @Test func aStoreThatCompletesWritesOutOfOrderFailsTheCheck() async throws {
        let failure = await #expect(throws: StoreConformanceFailure.self) {
            try await StoreConformance(makeStore: { DictionaryStore(completingInReverse: true) }).verify()
        }
        #expect(failure?.check == "group commit")
    }
}

/// A store as someone outside the package writes one, with only the public API: entries in a
/// dictionary, committed in order by a task of its own. Its two flaws, off by default, break
/// the contract on purpose.
private final class DictionaryStore: MachineStore {
    private typealias Pending = (write: JournalWrite, completion: @Sendable (StoreError?) -> Void)

    /// A value behind an `NSLock` (a pthread mutex, which the thread sanitizer sees, where it
    /// does not see `Mutex`'s futex on Linux).
    private final class Guarded<Value>: @unchecked Sendable {
        // @unchecked Sendable is sound: `value` is read and written only inside `withLock`.
        private let lock = NSLock()
        private var value: Value
        init(_ value: Value) { self.value = value }
        func withLock<T>(_ body: (inout Value) -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body(&value)
        }
    }

    /// The entries, by machine and number; shared with the committing task.
    private final class Journals: Sendable {
        let entries = Guarded<[String: [UInt64: [UInt8]]]>([:])
    }

    let codec: any DurableCodec = JSONCodec()
    private let journals = Journals()
    private let queue: AsyncStream<[Pending]>.Continuation
    private let batch = Guarded<[Pending]>([])
    private let keepingEveryOther: Bool
    private let completingInReverse: Bool

    init(keepingEveryOther: Bool = false, completingInReverse: Bool = false) {
        self.keepingEveryOther = keepingEveryOther
        self.completingInReverse = completingInReverse
        let (stream, queue) = AsyncStream<[Pending]>.makeStream()
        self.queue = queue
        Task { [journals] in
            var kept = 0
            for await pending in stream {
                journals.entries.withLock { journals in
                    for (write, _) in pending {
                        kept += 1
                        if keepingEveryOther && kept % 2 == 0 { continue }
                        let entry = write.entry
                        var journal = journals[entry.machine] ?? [:]
                        journal[entry.sequenceNumber] = entry.payload
                        if write.removingEntriesBelow > 0 { journal = journal.filter { $0.key >= write.removingEntriesBelow } }
                        journals[entry.machine] = journal
                    }
                }
                for (_, completion) in completingInReverse ? pending.reversed() : pending { completion(nil) }
            }
        }
    }

    deinit { queue.finish() }

    func append(_ write: JournalWrite, completion: @escaping @Sendable (StoreError?) -> Void) {
        // Writes queued together are committed together: the first of a batch sends it.
        let first = batch.withLock { batch in
            batch.append((write, completion))
            return batch.count == 1
        }
        if first {
            Task {
                // Taken and queued in one hold of the lock, so batches keep their order.
                self.batch.withLock { batch in
                    queue.yield(batch)
                    batch = []
                }
            }
        }
    }

    func latestEntries(of machine: String, count: Int) async throws(StoreError) -> [JournalEntry] {
        Array(try await entries(of: machine).reversed().prefix(count))
    }

    func entries(of machine: String) async throws(StoreError) -> [JournalEntry] {
        journals.entries.withLock { journals in
            (journals[machine] ?? [:]).sorted { $0.key < $1.key }
                .map { JournalEntry(machine: machine, sequenceNumber: $0.key, payload: $0.value) }
        }
    }

    func machineIDs() async throws(StoreError) -> [String] {
        journals.entries.withLock { Array($0.keys) }
    }
}
