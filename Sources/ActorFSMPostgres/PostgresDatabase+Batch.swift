import ActorFSMDurability

extension PostgresDatabase {
    /// The writes of one commit, as the arrays the append statement takes. Two writes of the same
    /// entry keep the later one; entries a later write of the batch removes are not sent.
    struct Batch {
        private var order: [String: Int] = [:]
        private var writes: [(machine: String, number: UInt64, payload: [UInt8], epoch: Int64, below: UInt64)] = []
        private(set) var indices: [Int] = []
        private(set) var machineOfIndex: [String] = []
        /// The forwarded events the writes record, and of those the ones they answer.
        private var consumed: [(machine: String, number: Int64)] = []
        private var answered: [Int64: (machine: String, reply: String)] = [:]
        /// Whether each machine has work pending after its newest write of the batch.
        private var pendingWork: [String: (number: UInt64, pending: Bool)] = [:]
        /// Each machine's summary after its newest write of the batch that has one.
        private var summaries: [String: (number: UInt64, summary: MachineSummary, epoch: Int64)] = [:]

        var isEmpty: Bool { indices.isEmpty }

        mutating func add(_ write: JournalWrite, epoch: Int64, index: Int) {
            let entry = write.entry
            if write.consumedForwardedEvent != 0 {
                if let reply = write.reply {
                    answered[write.consumedForwardedEvent] = (entry.machine, String(decoding: reply, as: UTF8.self))
                } else {
                    consumed.append((entry.machine, write.consumedForwardedEvent))
                }
            }
            indices.append(index)
            machineOfIndex.append(entry.machine)
            if entry.sequenceNumber >= pendingWork[entry.machine]?.number ?? 0 {
                pendingWork[entry.machine] = (entry.sequenceNumber, write.hasPendingWork)
            }
            if let summary = write.summary, entry.sequenceNumber >= summaries[entry.machine]?.number ?? 0 {
                summaries[entry.machine] = (entry.sequenceNumber, summary, epoch)
            }
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

        /// The machines and numbers of the forwarded events recorded but not answered (`$7` and
        /// `$8`): one statement must not both mark and remove an event.
        var consumedParameters: [PostgresParameter] {
            let marked = consumed.filter { answered[$0.number] == nil }
            return [.texts(marked.map(\.machine)), .integers(marked.map(\.number))]
        }

        /// The machines, numbers and replies of the forwarded events answered (`$19` to `$21`).
        var answeredParameters: [PostgresParameter] {
            let rows = answered.sorted { $0.key < $1.key }
            return [.texts(rows.map(\.value.machine)), .integers(rows.map(\.key)), .texts(rows.map(\.value.reply))]
        }

        /// The machines written, and whether each has work pending (`$9` and `$10`).
        var pendingWorkParameters: [PostgresParameter] {
            let machines = Array(pendingWork.keys)
            return [.texts(machines), .booleans(machines.map { pendingWork[$0]!.pending })]
        }

        /// The machines' summaries, one per machine: the newest of the batch.
        var summaryRows: [PostgresSummaries.Row] {
            summaries.map { (machine: $0.key, number: $0.value.number, summary: $0.value.summary, epoch: $0.value.epoch) }
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
