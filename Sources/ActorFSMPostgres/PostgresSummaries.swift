import ActorFSMDurability

/// The summaries of a `PostgresStore`'s committed entries that wait to be written: newest per
/// machine, written together at most `delay` after their entries' commits, so that a machine
/// that moves many times within the delay costs one row version. Used only on the store's
/// thread.
///
/// A row is never newer than the journal: it is written after its entry's commit, and only
/// while this process holds the machine's lease with the epoch it wrote the entry under (the
/// lease row locked, as the append locks it), so that it never lands over what a successor
/// wrote. A summary fenced off so is made again from the journal, where it lags. While this
/// process writes summaries late, a row of `actorfsm_summary_writers` names it (written again
/// at each renewal); if it dies without closing its store, the first store that finds its
/// life over rewrites every row behind its machine's journal
/// (`PostgresConnection.catchUpSummaries()`).
final class PostgresSummaries {
    /// A machine's summary and the number of its entry.
    typealias Row = (machine: String, number: UInt64, summary: MachineSummary, epoch: Int64)

    /// How long a summary may wait: zero writes it in its entry's statement, `nil` writes none
    /// (the journal alone, which benchmarks compare with).
    let delay: Duration?
    /// Newest per machine, each with its place in the order of the commits.
    private var waiting: [String: (row: Row, order: Int)] = [:]
    private var commitsOfWaiting = 0
    /// Machines whose summaries are made again from the journal at the next flush, where they
    /// lag it: those of an append whose outcome is unknown (the connection failed; the commit
    /// may have landed), and those fenced off whose catch-up failed.
    private var suspects: Set<String> = []

    init(delay: Duration?) {
        self.delay = delay
    }

    /// Whether the append statement writes the summaries of its entries.
    var areWrittenWithEntries: Bool { delay == .zero }

    /// Whether summaries wait to be written after their entries' commits.
    var wait: Bool { delay.map { $0 > .zero } ?? false }

    /// Keeps `rows` to write, the summaries of entries just committed, but those of machines
    /// not in `written` (whose writes were fenced).
    func keep(_ rows: [Row], writtenFor written: Set<String>) {
        for row in rows where written.contains(row.machine) && row.number >= waiting[row.machine]?.row.number ?? 0 {
            commitsOfWaiting += 1
            waiting[row.machine] = (row, commitsOfWaiting)
        }
    }

    /// Takes `machines`, whose append failed, as suspects: the commit may have landed.
    func suspect(_ machines: [String]) {
        suspects.formUnion(machines)
    }

    /// Writes the waiting summaries of the machines whose leases `node` still holds, in one
    /// statement (their change numbers follow the order of their commits), and makes those of
    /// the others, and of the suspects, from the journal where they lag; what fails is tried
    /// again at the next flush.
    func flush(on connection: PostgresConnection, node: String) throws(StoreError) {
        if !waiting.isEmpty {
            let rows = waiting.values.sorted { $0.order < $1.order }.map(\.row)
            let written = try connection.query(PostgresSchema.writeWaitingSummaries,
                                               Self.parameters(rows, sorted: false) + [.integers(rows.map(\.epoch)), .text(node)])
            waiting = [:]
            let kept = Set((0..<written.count).map { written.text($0, 0) })
            suspects.formUnion(rows.map(\.machine).filter { !kept.contains($0) })
        }
        guard !suspects.isEmpty else { return }
        try connection.catchUpSummaries(of: suspects.sorted())
        suspects = []
    }

    /// Writes what waits, and then says that the process (`node`, `instance`) has nothing to
    /// write, as its store closes; if something cannot be written, another process makes it
    /// from the journal once this one's life is over.
    func close(on connection: PostgresConnection, node: String, instance: String) {
        guard wait else { return }
        try? flush(on: connection, node: node)
        guard isEmpty else { return }
        _ = try? connection.query(PostgresSchema.forgetSummaryWriter, [.text(node), .text(instance)])
    }

    /// Whether nothing is left to write: no summary waits, and no machine is suspect.
    var isEmpty: Bool { waiting.isEmpty && suspects.isEmpty }

    /// `rows` as the eight arrays of the statements that write summaries, in machine order
    /// unless `sorted` is `false` (every statement locks rows in one order: one that takes them
    /// in another order sorts them itself).
    static func parameters(_ rows: [Row], sorted: Bool = true) -> [PostgresParameter] {
        let rows = sorted ? rows.sorted { $0.machine < $1.machine } : rows
        return [.texts(rows.map(\.machine)), .integers(rows.map { Int64(bitPattern: $0.number) }),
                .texts(rows.map(\.summary.state)), .texts(rows.map(\.summary.status.rawValue)),
                .texts(rows.map(\.summary.fingerprint)), .integers(rows.map { Int64($0.summary.schemaVersion) }),
                .integers(rows.map(\.summary.lastTransition)), .integers(rows.map { $0.summary.waitingUntil ?? 0 })]
    }
}
