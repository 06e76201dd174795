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
    /// Where the orders are, and where their payments are (the same store in a single process).
    let orderStore: any MachineStore
    let paymentStore: any MachineStore
    let workflows: Workflows
    let ledger: PaymentLedger
    let acks: String
    let orders: Int
    /// Whether every order must be complete (after a run that finished); otherwise what a run
    /// killed part-way left is checked.
    let requiresCompletion: Bool

    init(
        orders orderStore: any MachineStore, payments paymentStore: any MachineStore, workflows: Workflows, ledger: PaymentLedger,
        acks: String, count: Int, requiresCompletion: Bool
    ) {
        self.orderStore = orderStore
        self.paymentStore = paymentStore
        self.workflows = workflows
        self.ledger = ledger
        self.acks = acks
        self.orders = count
        self.requiresCompletion = requiresCompletion
    }

    /// Prints what holds and what does not; `true` if everything holds.
    func run() async -> Bool {
        var problems: [String] = []
        var transitions = 0
        var histories: [Int: [StoredTransition<OrderWorkflow>]] = [:]
        var payments: [Int: [StoredTransition<PaymentWorkflow>]] = [:]
        let orderLog = Durability<OrderWorkflow>(store: orderStore)
        let paymentLog = Durability<PaymentWorkflow>(store: paymentStore)
        for id in 0..<orders {
            do {
                let history = try await orderLog.history(of: id, schema: workflows.orders.schema)
                let payment = try await paymentLog.history(of: "payment-\(id)", schema: workflows.payments.schema)
                histories[id] = history
                payments[id] = payment
                transitions += history.filter { $0.kind != .created }.count + payment.filter { $0.kind != .created }.count
                problems += check(id, history, payment)
            } catch {
                problems.append("order \(id): \(error)")
            }
        }
        problems += await checkLedger(histories, payments)
        problems += await checkSummaries()
        let acknowledged = AckFile.read(acks)
        for (id, number) in acknowledged where !(histories[id] ?? []).contains(where: { $0.sequenceNumber == number }) {
            problems.append("order \(id): send acknowledged event \(number), which the store does not hold")
        }
        for problem in problems.prefix(20) { print("  ✗ \(problem)") }
        guard problems.isEmpty else {
            print("Verification failed: \(problems.count) problems")
            return false
        }
        print("Verified \(orders) orders, \(transitions) stored transitions of orders and payments, "
              + "\(acknowledged.count) acknowledged sends: "
              + (requiresCompletion ? "every order complete, " : "")
              + "every acknowledged send stored, sequence numbers gap-free, no transition applied twice, "
              + "each payment's end taken once, no payment timeout fired twice, no card charged twice, "
              + "none both charged and expired, every machine's summary at its newest entry")
        return true
    }

    /// One order's journal and its payment's.
    func check(_ id: Int, _ history: [StoredTransition<OrderWorkflow>], _ payment: [StoredTransition<PaymentWorkflow>]) -> [String] {
        var problems = Self.checkJournal("order \(id)", history, requiresCompletion: requiresCompletion)
        problems += Self.checkJournal("payment of order \(id)", payment, requiresCompletion: false)
        let ends = history.filter {
            $0.kind == .completed("transitioned") && [.paymentSucceeded, .paymentDeclined, .paymentTimedOut].contains($0.event)
        }
        if ends.count > 1 { problems.append("order \(id): the payment's end was taken \(ends.count) times") }
        let completed = history.last(where: { $0.state != nil })?.state
        if requiresCompletion {
            guard let last = completed, last.isFinal else {
                return problems + ["order \(id) is not complete: \(history.last?.state.map { "\($0)" } ?? "no entry")"]
            }
            let paymentEnded = payment.last(where: { $0.state != nil })?.state.map {
                [.approved, .declined, .expired, .voided].contains($0)
            } ?? false
            if !payment.isEmpty && !paymentEnded { problems.append("order \(id) is \(last), but its payment did not end") }
        }
        return problems + checkPayment(id, payment)
    }

    /// A journal's creation (0), then 1, 2, 3… with no gap; no event left half-processed but
    /// the last (none at all when the run must be complete).
    static func checkJournal<Definition: MachineDefinition>(
        _ name: String, _ entries: [StoredTransition<Definition>], requiresCompletion: Bool
    ) -> [String] {
        guard !entries.isEmpty else { return [] }
        var problems: [String] = []
        let numbers = entries.map(\.sequenceNumber)
        if numbers != Array(0...UInt64(entries.count - 1)) || entries.first?.kind != .created {
            problems.append("\(name): sequence numbers \(numbers) are not its creation then 1…\(entries.count - 1)")
        }
        if entries.dropLast().contains(where: { $0.kind == .intent }) || (requiresCompletion && entries.last?.kind == .intent) {
            problems.append("\(name): an event never completed")
        }
        return problems
    }

    /// A payment counts each charge once in its data, fires its timeout at most once, and
    /// exactly once if it expired.
    func checkPayment(_ id: Int, _ history: [StoredTransition<PaymentWorkflow>]) -> [String] {
        var problems: [String] = []
        var attempts = 0
        for entry in history {
            guard let data = entry.data else { continue }
            let charged = entry.kind == .completed("transitioned") && (entry.event == .charge || entry.event == .declined)
                && data.attempts > attempts
            if data.attempts != attempts + (charged ? 1 : 0) {
                problems.append("payment of order \(id): entry \(entry.sequenceNumber) counts \(data.attempts) charges after \(attempts)")
            }
            attempts = data.attempts
        }
        // A timeout recorded as stopped (queued behind a failure that stopped the payment) was
        // never processed: the restarted payment arms it again, and that one fires.
        let timeouts = history.filter {
            $0.event == nil && $0.kind != .created && $0.kind != .intent && $0.kind != .completed("stopped")
        }.count
        let last = history.last(where: { $0.state != nil })?.state
        let isFinal = last.map { [.approved, .declined, .expired, .voided].contains($0) } ?? false
        if timeouts > 1 || (isFinal && (last == .expired) != (timeouts == 1)) {
            problems.append("payment of order \(id): \(timeouts) timeouts fired, and it is \(last.map { "\($0)" } ?? "-")")
        }
        return problems
    }

    /// Each order has at most one approved charge, none whose order or payment expired, and
    /// every charge the gateway took is one the payment's data counts (its key names the
    /// attempt), or the attempt after them: a charge whose transition a kill interrupted or a
    /// failure undid, which the payment asks again with the same key, or voids when it expires.
    func checkLedger(
        _ histories: [Int: [StoredTransition<OrderWorkflow>]], _ payments: [Int: [StoredTransition<PaymentWorkflow>]]
    ) async -> [String] {
        var problems: [String] = []
        for (order, count) in await ledger.approvedCharges {
            if count > 1 { problems.append("order \(order): card charged \(count) times") }
            let expired = histories[order]?.last?.state == .paymentExpired
                || payments[order]?.last(where: { $0.state != nil })?.state == .expired
            if expired { problems.append("order \(order): the card was charged, and the payment expired") }
        }
        for (key, charge) in await ledger.charges {
            let attempt = key.split(separator: "#").last.flatMap { Int($0) } ?? 0
            let counted = payments[charge.order]?.last(where: { $0.data != nil })?.data?.attempts ?? 0
            if attempt < 1 || attempt > counted + 1 {
                problems.append("order \(charge.order): the gateway took charge \(key), but the payment counts \(counted)")
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
