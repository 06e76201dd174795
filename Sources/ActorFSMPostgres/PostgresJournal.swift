import ActorFSM

/// The store's side of the database: its connection, the tables, and the leases this process
/// holds. Used only on the store's thread (and by `PostgresStore.init` before it starts).
final class PostgresJournal {
    let connection: PostgresConnection
    let node: String
    private let leaseSeconds: Double
    /// The epoch (fencing token) of each machine this process holds a lease on.
    private var epochs: [String: Int64] = [:]

    init(url: String, node: String, leaseDuration: Duration) throws(StoreError) {
        connection = try PostgresConnection(url: url)
        self.node = node
        leaseSeconds = Double(leaseDuration.components.seconds) + Double(leaseDuration.components.attoseconds) * 1e-18
        try connection.execute(PostgresSchema.creation)
        try renew()
    }

    // MARK: - Leases

    /// Marks this process alive until the lease duration from now, in the database's clock.
    func renew() throws(StoreError) {
        try connection.query(PostgresSchema.renew, [.text(node), .text("\(leaseSeconds) seconds")])
    }

    /// Takes the lease of each of `machines` that is free, held by this process, or held by a
    /// process whose time is up, with a new epoch; returns the machines taken, in order.
    func claim(_ machines: [String]) throws(StoreError) -> [String] {
        guard !machines.isEmpty else { return [] }
        let rows = try connection.query(PostgresSchema.claim, [.texts(machines), .text(node)])
        var claimed = Set<String>()
        for row in 0..<rows.count {
            claimed.insert(rows.text(row, 0))
            epochs[rows.text(row, 0)] = rows.integer(row, 1)
        }
        for machine in machines where !claimed.contains(machine) { epochs[machine] = nil }
        return machines.filter { claimed.contains($0) }
    }

    /// Gives up the leases of `machines` (claimed, then found not to be worth restoring).
    func release(_ machines: [String]) throws(StoreError) {
        guard !machines.isEmpty else { return }
        for machine in machines { epochs[machine] = nil }
        try connection.query(PostgresSchema.releaseSome, [.texts(machines), .text(node)])
    }

    /// Gives up every lease this process holds, so that other processes can take them at once.
    func releaseAll() throws(StoreError) {
        epochs = [:]
        try connection.query(PostgresSchema.release, [.text(node)])
    }

    // MARK: - Journal

    /// Applies `writes` in one statement (one commit), each only if this process still holds the
    /// machine's lease with the epoch it claimed; the error of each write, `nil` if it is durable.
    func commit(_ writes: [JournalWrite]) -> [StoreError?] {
        var results = [StoreError?](repeating: nil, count: writes.count)
        var batch = Batch()
        for (index, write) in writes.enumerated() {
            guard let epoch = epochs[write.entry.machine] else {
                results[index] = StoreError("this process holds no lease on machine \(write.entry.machine): "
                                            + "its journal is written only by the process that claimed it", isFenced: true)
                continue
            }
            batch.add(write, epoch: epoch, index: index)
        }
        guard !batch.isEmpty else { return results }
        let written: Set<String>
        do {
            let rows = try connection.query(PostgresSchema.append, batch.parameters(node: node))
            written = Set((0..<rows.count).map { rows.text($0, 0) })
        } catch {
            for index in batch.indices { results[index] = error }
            return results
        }
        for (index, machine) in zip(batch.indices, batch.machineOfIndex) where !written.contains(machine) {
            epochs[machine] = nil
            results[index] = StoreError("the lease of machine \(machine) was taken over by another process: "
                                        + "this process's late write was rejected", isFenced: true)
        }
        return results
    }

    /// The newest `count` entries of each of `machines`, newest first; all of them, oldest first,
    /// when `count` is `nil` (one machine).
    func entries(of machines: [String], newest count: Int?) throws(StoreError) -> [String: [JournalEntry]] {
        let rows = if let count {
            try connection.query(PostgresSchema.latest, [.texts(machines), .integer(Int64(count))])
        } else {
            try connection.query(PostgresSchema.all, [.texts(machines)])
        }
        var entries: [String: [JournalEntry]] = [:]
        for machine in machines { entries[machine] = [] }
        for row in 0..<rows.count {
            let machine = rows.text(row, 0)
            entries[machine, default: []].append(JournalEntry(
                machine: machine, sequenceNumber: UInt64(bitPattern: rows.integer(row, 1)), payload: rows.bytes(row, 2)))
        }
        return entries
    }

    func machineIDs() throws(StoreError) -> [String] {
        let rows = try connection.query(PostgresSchema.machines)
        return (0..<rows.count).map { rows.text($0, 0) }
    }

    /// The writes of one commit, as the arrays the append statement takes. Two writes of the same
    /// entry keep the later one; entries a later write of the batch removes are not sent.
    private struct Batch {
        private var order: [String: Int] = [:]
        private var writes: [(machine: String, number: UInt64, payload: [UInt8], epoch: Int64, below: UInt64)] = []
        private(set) var indices: [Int] = []
        private(set) var machineOfIndex: [String] = []

        var isEmpty: Bool { indices.isEmpty }

        mutating func add(_ write: JournalWrite, epoch: Int64, index: Int) {
            let entry = write.entry
            indices.append(index)
            machineOfIndex.append(entry.machine)
            let key = "\(entry.sequenceNumber)#\(entry.machine)"
            let item = (entry.machine, entry.sequenceNumber, entry.payload, epoch, write.removingEntriesBelow)
            if let existing = order[key] {
                // The later write of the entry wins; a removal either asked for still happens.
                let below = max(writes[existing].below, write.removingEntriesBelow)
                writes[existing] = item
                writes[existing].below = below
            } else {
                order[key] = writes.count
                writes.append(item)
            }
        }

        func parameters(node: String) -> [PostgresParameter] {
            var below: [String: UInt64] = [:]
            for write in writes { below[write.machine] = max(below[write.machine] ?? 0, write.below) }
            // In machine order: the statement locks lease rows in this order, as claims do.
            let kept = writes.filter { $0.number >= below[$0.machine]! }.sorted { $0.machine < $1.machine }
            return [.texts(kept.map(\.machine)), .integers(kept.map { Int64(bitPattern: $0.number) }),
                    .byteArrays(kept.map(\.payload)), .integers(kept.map(\.epoch)),
                    .integers(kept.map { Int64(bitPattern: $0.below) }), .text(node)]
        }
    }
}
