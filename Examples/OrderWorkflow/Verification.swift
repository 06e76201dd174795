import ActorFSM
import ActorFSMDurability
import ActorFSMSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--verify`: checks what a run (or many killed runs and the one that finished them) left in
/// the store, the gateway's ledger and the log of acknowledged sends.
struct Verification {
    let store: any MachineStore
    let durability: Durability<OrderWorkflow>
    let schema: Schema<OrderWorkflow>
    let ledger: PaymentLedger
    let acks: String
    let orders: Int
    /// Whether every order must be complete (after a run that finished); otherwise what a run
    /// killed part-way left is checked.
    let requiresCompletion: Bool

    /// Prints what holds and what does not; `true` if everything holds.
    func run() async -> Bool {
        var problems: [String] = []
        var transitions = 0
        var histories: [Int: [StoredTransition<OrderWorkflow>]] = [:]
        for id in 0..<orders {
            do {
                let history = try await durability.history(of: id, schema: schema)
                histories[id] = history
                transitions += history.filter { $0.kind != .created }.count
                problems += check(id, history)
            } catch {
                problems.append("order \(id): \(error)")
            }
        }
        problems += await checkLedger(histories)
        let acknowledged = AckFile.read(acks)
        for (id, number) in acknowledged where !(histories[id] ?? []).contains(where: { $0.sequenceNumber == number }) {
            problems.append("order \(id): send acknowledged event \(number), which the store does not hold")
        }
        for problem in problems.prefix(20) { print("  ✗ \(problem)") }
        guard problems.isEmpty else {
            print("Verification failed: \(problems.count) problems")
            return false
        }
        print("Verified \(orders) orders, \(transitions) stored transitions, \(acknowledged.count) acknowledged sends: "
              + (requiresCompletion ? "every order complete, " : "")
              + "every acknowledged send stored, sequence numbers gap-free, no transition applied twice, "
              + "no payment timeout fired twice, no card charged twice, none both charged and expired")
        return true
    }

    /// One order's journal: its creation (0), then 1, 2, 3… with no gap; complete at the end;
    /// each charge counted once in the data; at most one timeout, and one exactly for an
    /// expired payment.
    func check(_ id: Int, _ history: [StoredTransition<OrderWorkflow>]) -> [String] {
        var problems: [String] = []
        let numbers = history.map(\.sequenceNumber)
        if history.isEmpty && !requiresCompletion { return [] }
        if numbers != Array(0...UInt64(max(0, history.count - 1))) || history.first?.kind != .created {
            problems.append("order \(id): sequence numbers \(numbers) are not its creation then 1…\(history.count - 1)")
        }
        let interrupted = history.dropLast().contains { $0.kind == .intent }
            || (requiresCompletion && history.last?.kind == .intent)
        if interrupted { problems.append("order \(id): an event never completed") }
        let completed = history.last(where: { $0.state != nil })?.state
        if completed == nil && !requiresCompletion { return problems }
        guard let last = completed, last.isFinal || !requiresCompletion else {
            return problems + ["order \(id) is not complete: \(history.last?.state.map { "\($0)" } ?? "no entry")"]
        }
        var attempts = 0
        for entry in history {
            guard let data = entry.data else { continue }
            let charged = entry.kind == .completed("transitioned") && (entry.event == .submit || entry.event == .paymentDeclined)
                && data.paymentAttempts > attempts
            if data.paymentAttempts != attempts + (charged ? 1 : 0) {
                problems.append("order \(id): entry \(entry.sequenceNumber) counts \(data.paymentAttempts) charges after \(attempts)")
            }
            attempts = data.paymentAttempts
        }
        // A timeout recorded as stopped (queued behind a failure that stopped the order) was
        // never processed: the restarted order arms it again, and that one fires.
        let timeouts = history.filter {
            $0.event == nil && $0.kind != .created && $0.kind != .intent && $0.kind != .completed("stopped")
        }.count
        if timeouts > 1 || (last.isFinal && (last == .paymentExpired) != (timeouts == 1)) {
            problems.append("order \(id): \(timeouts) payment timeouts fired, and it ended \(last)")
        }
        return problems
    }

    /// Each order has at most one approved charge, and every charge the gateway took is one the
    /// order's data counts (its key names the attempt), or the attempt after them: a charge
    /// whose transition a kill interrupted or a failure undid, which the order asks again with
    /// the same key, or voids when its payment times out.
    func checkLedger(_ histories: [Int: [StoredTransition<OrderWorkflow>]]) async -> [String] {
        var problems: [String] = []
        for (order, count) in await ledger.approvedCharges {
            if count > 1 { problems.append("order \(order): card charged \(count) times") }
            if histories[order]?.last?.state == .paymentExpired {
                problems.append("order \(order): the card was charged, and the order ended payment expired")
            }
        }
        for (key, charge) in await ledger.charges {
            let attempt = key.split(separator: "#").last.flatMap { Int($0) } ?? 0
            let history = histories[charge.order] ?? []
            let counted = history.last(where: { $0.data != nil })?.data?.paymentAttempts ?? 0
            if attempt < 1 || attempt > counted + 1 {
                problems.append("order \(charge.order): the gateway took charge \(key), but the order counts \(counted)")
            }
        }
        return problems
    }
}

/// Reads the log of acknowledged sends.
enum AckFile {
    static func read(_ path: String) -> [(Int, UInt64)] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        return PaymentLedger.readLines(descriptor).compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 2, let id = Int(fields[0]), let number = UInt64(fields[1]) else { return nil }
            return (id, number)
        }
    }
}
