/// Follows the machines whose summaries change in a store, for a watcher that polls: each
/// ``next(limit:)`` returns those changed since the last call, each change once.
///
/// A store numbers changes in the order it writes them; PostgreSQL takes numbers from a
/// sequence, so a transaction can commit a lower number after a higher one was read. The
/// follower therefore reads again the last `lookback` numbers it has passed, and returns only
/// the changes it has not returned yet. A machine that changed twice between two calls is
/// returned once, as it is after the second change: its history has both.
///
/// ```swift
/// var follower = ChangeFollower(store: store)
/// while true {
///     for machine in try await follower.next() { print(machine.id, machine.summary.state) }
///     try await Task.sleep(for: .seconds(1))
/// }
/// ```
public struct ChangeFollower: Sendable {
    /// The store followed.
    public let store: any StoreInspection
    /// How many change numbers below the newest returned are read again (the newest itself is).
    public let lookback: Int64
    /// The newest change number returned.
    public private(set) var newest: Int64
    /// The changes returned within the lookback, by number and machine (numbers a scanning
    /// inspection gives, times, may repeat).
    private var returned: Set<Returned> = []

    private struct Returned: Hashable, Sendable {
        let change: Int64
        let id: String
    }

    /// Follows `store` from after change number `change` (0: from the first change).
    public init(store: any StoreInspection, after change: Int64 = 0, lookback: Int64 = 10_000) {
        self.store = store
        self.lookback = Swift.max(0, lookback)
        newest = change
    }

    /// Follows `store` from its newest change: only changes made from now on are returned.
    public static func fromNow(store: any StoreInspection, lookback: Int64 = 10_000) async throws(StoreError) -> ChangeFollower {
        var follower = ChangeFollower(store: store, lookback: lookback)
        // Everything there now counts as returned; a busy store is read until a page is not full.
        while try await follower.next(limit: 10_000).count == 10_000 {}
        return follower
    }

    /// The machines whose summaries changed since the last call, in the order of their
    /// change numbers, at most `limit` new ones.
    ///
    /// Numbers may repeat (``ScanningInspection`` numbers changes by time): a page that ends
    /// within a run of one number is read again from that number, and a page that holds
    /// nothing but one number is read again twice as long, so that no change is skipped.
    public mutating func next(limit: Int = 1_000) async throws(StoreError) -> [StoredMachine] {
        let limit = Swift.max(1, limit)
        var fresh: [StoredMachine] = []
        var taken: Set<Returned> = []
        var after = floor
        var pageLimit = limit
        while fresh.count < limit {
            let page = try await store.changes(after: after, limit: pageLimit)
            for machine in page {
                let key = Returned(change: machine.change, id: machine.id)
                if !returned.contains(key) && taken.insert(key).inserted { fresh.append(machine) }
            }
            guard page.count == pageLimit, let first = page.first, let last = page.last else { break }
            if first.change == last.change {
                pageLimit *= 2
            } else {
                after = last.change - 1
            }
        }
        fresh = Array(fresh.prefix(limit))
        for machine in fresh {
            returned.insert(Returned(change: machine.change, id: machine.id))
            newest = Swift.max(newest, machine.change)
        }
        let floor = floor
        returned = returned.filter { $0.change > floor }
        return fresh
    }

    /// The number the next read starts after: the lookback below the newest returned, and the
    /// newest itself, whose run a page may have cut short.
    private var floor: Int64 { Swift.max(0, newest - lookback - 1) }
}
