import ActorFSM
@_spi(Stores) import ActorFSMDurability
@_spi(Benchmarks) import ActorFSMSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// B8's turnstile: B1's table, kept in a store; states and events encode as their names.
enum StoredTurnstile: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable { case locked, unlocked }
    enum Event: String, Codable, Hashable, Sendable { case coin, pass }
}

/// The B8 turnstile: four transitions, each running `tick`, as users write it.
func storedTurnstileSchema(_ counter: Counter) throws -> Schema<StoredTurnstile> {
    try Schema<StoredTurnstile>(initial: .locked) {
        define(.locked) {
            when(.coin) | then(.unlocked) | { counter.value += 1 }
            when(.pass) | then(.locked)   | { counter.value += 1 }
        }
        define(.unlocked) {
            when(.coin) | then(.unlocked) | { counter.value += 1 }
            when(.pass) | then(.locked)   | { counter.value += 1 }
        }
    }
}

/// B8: durable machines on a SQLite store in a temporary folder (the disk the benchmark runs
/// on), beside a raw fdatasync of an entry's size measured in the same run.
func benchmarkB8(_ settings: Settings) async throws -> [Measurement] {
    let folder = try BenchmarkFolder()
    let clock = ContinuousClock()
    var results: [Measurement] = []

    // The floor: appending what one commit of one entry writes to a file, and fdatasync-ing it,
    // one write at a time. SQLite's log writes whole pages: a commit of one small entry appends
    // one frame, a 24-byte header and a 4,096-byte page.
    let syncs = settings.quick ? 50 : 300
    results.append(try fdatasyncBaseline(path: folder.file("baseline"), bytes: 4_120, count: syncs))

    // What a durable send pays besides the disk: handing work to a store's thread, which wakes,
    // and resuming the waiting task from it, which wakes a thread of the pool.
    do {
        let thread = StoreThread<CheckedContinuation<Void, Never>>(name: "round trip") { batch in
            for continuation in batch { continuation.resume() }
        }
        var latencies: [Double] = []
        for index in 0..<(syncs + 10) {
            let start = clock.now
            await withCheckedContinuation { thread.submit($0) }
            if index >= 10 { latencies.append((clock.now - start).nanoseconds / 1_000) }
        }
        thread.close()
        results.append(Measurement(name: "B8 store thread round trip, no I/O", unit: "µs", samples: latencies,
                                   checksum: syncs))
    }

    // One machine, one `send` at a time, each durable before it returns: the latency users see.
    let sends = settings.quick ? 50 : 300
    do {
        let store = try SQLiteStore(path: folder.file("single.sqlite"))
        results.append(try await DurableWorkloads.sendLatencies(on: store, named: "B8 durable send, one machine", count: sends))
        store.close()
    }

    // 1,000 machines, each sent events one after another by a task of its own: every send is
    // durable, and concurrent sends share commits. In turn with summaries written in each
    // commit, and with the journal alone, without the summaries that inspection reads: what
    // keeping them costs.
    results += try await DurableWorkloads.throughputs([
        .init(name: "B8 durable transitions, 1,000 machines",
              open: { try SQLiteStore(path: folder.file("many-\(RunNumber.next()).sqlite")) }, close: { $0.close() }),
        .init(name: "B8 durable transitions, 1,000 machines, summaries in each commit",
              open: { try SQLiteStore(path: folder.file("many-\(RunNumber.next()).sqlite"), summaryDelay: .zero) },
              close: { $0.close() }),
        .init(name: "B8 durable transitions, 1,000 machines, journal alone",
              open: { try SQLiteStore(journalAloneAt: folder.file("many-\(RunNumber.next()).sqlite")) }, close: { $0.close() }),
    ], machines: 1_000, perMachine: settings.quick ? 20 : 100, repetitions: settings.quick ? 1 : 3)

    // Bytes per transition: the database file, checkpointed, over the transitions it holds;
    // and the same for the journal alone, without the summaries.
    for (name, alone) in [("B8 bytes per transition, beyond event and data", false),
                          ("B8 bytes per transition, beyond event and data, journal alone", true)] {
        let path = folder.file("size-\(RunNumber.next()).sqlite")
        let store = alone ? try SQLiteStore(journalAloneAt: path) : try SQLiteStore(path: path)
        let supervisor = try Supervisor(schema: try storedTurnstileSchema(Counter()),
                                        durability: Durability(store: store, compactionInterval: 0))
        let count = 100
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 0..<count {
                group.addTask {
                    for index in 0..<100 { try await supervisor.send(to: "m\(id)", index % 2 == 0 ? .coin : .pass, orActivate: true) }
                }
            }
            try await group.waitForAll()
        }
        await supervisor.shutdown()
        store.close()
        let bytes = Double(fileSize(path)) / Double(count * 100)
        // The event (`"coin"`) and the data (none) take 6 and 0 of them.
        results.append(Measurement(name: name, unit: "bytes", median: bytes - 6, min: bytes - 6, max: bytes - 6, checksum: count))
    }

    // A machine in memory, sent events one after another, alone and then beside durable
    // machines whose store's disk is slow (each commit takes 5 ms longer): blocking I/O runs on
    // the store's thread, so the machine in memory keeps its pace.
    let events = turnstileEvents(settings.b1StreamEvents)
    let inMemory = { () async throws -> (Duration, Int) in
        let counter = Counter()
        let machine = Machine(schema: try turnstileSchema(counter), id: 0)
        let start = clock.now
        for event in events { try await machine.send(event) }
        return (clock.now - start, counter.value)
    }
    results += try await measureInTurn([
        Variant(name: "B8 in-memory send, alone", body: inMemory),
        Variant(name: "B8 in-memory send, slow disk beside") {
            let store = SlowStore(try SQLiteStore(path: folder.file("load-\(RunNumber.next()).sqlite")),
                                  delay: .milliseconds(5))
            let supervisor = try Supervisor(schema: try storedTurnstileSchema(Counter()),
                                            durability: Durability(store: store, compactionInterval: 0))
            let load = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for id in 0..<8 {
                        group.addTask {
                            let machine = try await supervisor.activate(id: "load\(id)")
                            while !Task.isCancelled { try await machine.send(.coin) }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            let measured = try await inMemory()
            load.cancel()
            _ = await load.result
            await supervisor.shutdown()
            store.close()
            return measured
        },
    ], unit: "ns/event", repetitions: settings.repetitions, units: Double(events.count))

    // Recovery: 100,000 machines with a compacted journal each, restored by a new supervisor.
    let restored = settings.quick ? 10_000 : 100_000
    do {
        let path = folder.file("recovery.sqlite")
        let store = try SQLiteStore(path: path)
        let supervisor = try Supervisor(schema: try storedTurnstileSchema(Counter()),
                                        durability: Durability(store: store, acknowledgement: .fireAndForget(window: 64),
                                                               compactionInterval: 4))
        for id in 0..<restored {
            let machine = try await supervisor.activate(id: "r\(id)")
            for index in 0..<5 { try await machine.send(index % 2 == 0 ? .coin : .pass) }
        }
        await supervisor.shutdown()
        store.close()
    }
    results.append(try await measure("B8 recovery, \(restored / 1_000)k machines", unit: "ms", repetitions: 1, units: 1,
                                     scale: 1e6) {
        let store = try SQLiteStore(path: folder.file("recovery.sqlite"))
        let supervisor = try Supervisor(schema: try storedTurnstileSchema(Counter()), durability: Durability(store: store))
        let start = clock.now
        let count = try await supervisor.restoreAll().restored
        let elapsed = clock.now - start
        await supervisor.stop()
        store.close()
        return (elapsed, count)
    })
    results += try await benchmarkB8Children(settings, folder: folder)
    return results
}

extension Supervisor where Definition == StoredTurnstile {
    /// `send`, activating the machine first if need be.
    @discardableResult
    func send(to id: String, _ event: StoredTurnstile.Event, orActivate: Bool) async throws -> TransitionRecord<StoredTurnstile> {
        try await activate(id: id).send(event)
    }
}

/// One fdatasync after each append of `bytes` bytes, `count` times: the median and spread.
func fdatasyncBaseline(path: String, bytes: Int, count: Int) throws -> Measurement {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw BenchmarkError("cannot open \(path)") }
    defer { close(descriptor) }
    let entry = [UInt8](repeating: 0x5A, count: bytes)
    let clock = ContinuousClock()
    var latencies: [Double] = []
    for index in 0..<(count + 10) {
        let start = clock.now
        _ = entry.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        fdatasync(descriptor)
        if index >= 10 { latencies.append((clock.now - start).nanoseconds / 1_000) }
    }
    return Measurement(name: "B8 fdatasync of a commit's bytes", unit: "µs/sync", samples: latencies, checksum: count)
}

func fileSize(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : 0
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A temporary folder for B8's files, in the folder TMPDIR names (`/tmp` by default), removed
/// at the end.
final class BenchmarkFolder {
    let path: String

    init() throws {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/fsm-benchmarks-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw BenchmarkError("cannot make a folder in \(base)")
        }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func file(_ name: String) -> String { path + "/" + name }

    deinit {
        if let entries = opendir(path) {
            while let entry = readdir(entries) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { unlink(file(name)) }
            }
            closedir(entries)
        }
        rmdir(path)
    }
}

/// Distinct names for the files of repeated runs.
enum RunNumber {
    private static let counter = Counter()
    static func next() -> Int {
        counter.value += 1
        return counter.value
    }
}

/// A store whose every commit takes `delay` longer, as on a slow disk: a thread of its own
/// blocks for the delay, then hands the batch to the store it wraps.
final class SlowStore: MachineStore {
    private let inner: SQLiteStore
    private let thread: StoreThread<(JournalWrite, @Sendable (StoreError?) -> Void)>

    init(_ inner: SQLiteStore, delay: Duration) {
        self.inner = inner
        thread = StoreThread(name: "slow disk") { batch in
            var remaining = timespec(tv_sec: Int(delay.components.seconds),
                                     tv_nsec: Int(delay.components.attoseconds / 1_000_000_000))
            var left = timespec()
            while nanosleep(&remaining, &left) != 0 { remaining = left }
            for (write, completion) in batch { inner.append(write, completion: completion) }
        }
    }

    var codec: any DurableCodec { inner.codec }

    func append(_ write: JournalWrite, completion: @escaping @Sendable (StoreError?) -> Void) {
        thread.submit((write, completion))
    }

    func latestEntries(of machine: String, count: Int) async throws(StoreError) -> [JournalEntry] {
        try await inner.latestEntries(of: machine, count: count)
    }

    func entries(of machine: String) async throws(StoreError) -> [JournalEntry] { try await inner.entries(of: machine) }

    func machineIDs() async throws(StoreError) -> [String] { try await inner.machineIDs() }

    func close() {
        thread.close()
        inner.close()
    }
}
