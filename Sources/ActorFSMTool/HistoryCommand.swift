import ActorFSMDurability

/// `actorfsm history ID`: each stored entry of one machine.
struct HistoryCommand {
    let context: CommandContext
    var invocation: Invocation { context.invocation }
    var store: any StoreInspection { context.store }

    func output(_ text: String) { context.output(text) }

    func run(id: String) async throws {
        let history = try await store.history(of: id)
        guard !history.isEmpty else {
            if let purged = try await store.machine(id), purged.summary.status == .purged {
                let ended = TextFormat.time(purged.summary.lastTransition)
                throw CommandFailure("machine \(id) has no history: a purge deleted its journal, and kept its summary (it ended in "
                                     + "\(purged.summary.state) at \(ended))")
            }
            throw CommandFailure("the store holds no machine \(id)")
        }
        if invocation.format == .json {
            output(try TextFormat.json(history))
            return
        }
        let rows = history.map { entry in
            [String(entry.sequenceNumber), entry.time.map(TextFormat.time) ?? "-", entry.kind.rawValue,
             entry.origin ?? "-", entry.event ?? entry.operation?.verb ?? "-", entry.outcome ?? "-", entry.state ?? "-", Self.notes(of: entry),
             entry.data ?? "-"]
        }
        output(TextFormat.table(["#", "TIME", "KIND", "ORIGIN", "EVENT", "OUTCOME", "STATE", "NOTES", "DATA"],
                                                   rows))
    }

    /// An operator's reason, the pause, and the timers, retries and cancellations the entry holds.
    private static func notes(of entry: HistoryEntry) -> String {
        var notes: [String] = []
        if let operation = entry.operation {
            // An event's entry names the verb (a retry) that put it back; an operator's entry has it as its event.
            if entry.event != nil {
                notes.append(operation.reason.isEmpty ? operation.verb : "\(operation.verb): \(operation.reason)")
            } else if !operation.reason.isEmpty {
                notes.append("reason: \(operation.reason)")
            }
        }
        if entry.isPaused { notes.append("paused") }
        notes += entry.pending.map { pending in
            pending.due.map { "\(pending.kind) \(pending.event) at \(TextFormat.time($0))" } ?? "\(pending.kind) \(pending.event)"
        }
        if let retry = entry.retry { notes.append("retry #\(retry.attempt) at \(TextFormat.time(retry.due))") }
        if !entry.children.isEmpty { notes.append("children \(entry.children.joined(separator: ", "))") }
        if !entry.childrenEnded.isEmpty { notes.append("children ended at places \(entry.childrenEnded.map(String.init).joined(separator: ", "))") }
        if !entry.cancelling.isEmpty { notes.append("cancelling children \(entry.cancelling.joined(separator: ", "))") }
        return notes.isEmpty ? "-" : notes.joined(separator: "; ")
    }
}

/// A command that ran and failed, with what to tell the user.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
