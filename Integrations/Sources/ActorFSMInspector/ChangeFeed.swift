import ActorFSMDurability

/// The transitions the inspector's pages follow: one follower of the store for every page,
/// its newest changes kept and numbered for the pages. Pages that ask while the store is being
/// read share that read, so any number of them cost one read at a time.
actor ChangeFeed {
    private let store: any StoreInspection
    private let kept: Int
    private var follower: ChangeFollower?
    private var recent: [FeedItem] = []
    private var newest = 0
    private var reading: Task<Void, any Error>?
    /// Names this feed: numbers from a feed of an earlier run of the server mean nothing here.
    let name = String(UInt64.random(in: 0...UInt64.max), radix: 36)

    init(store: any StoreInspection, kept: Int = 500) {
        self.store = store
        self.kept = kept
    }

    /// The changes numbered above `after`, oldest first, and the newest number; without
    /// `after` (or with one this feed has not reached), the newest changes kept (none before
    /// the feed's first read). Only the newest `kept` changes are kept: a page that asks less
    /// often than they come misses the older ones.
    func items(after: Int?) async throws -> (items: [FeedItem], newest: Int) {
        try await refresh()
        guard let after, after <= newest else { return (Array(recent.suffix(50)), newest) }
        return (recent.filter { $0.number > after }, newest)
    }

    /// Reads the store; callers that come while a read runs wait for it rather than start another.
    private func refresh() async throws {
        if let reading { return try await reading.value }
        let task = Task { try await read() }
        reading = task
        defer { reading = nil }
        try await task.value
    }

    private func read() async throws {
        if follower == nil {
            // Kept at once: finding the newest change reads every change in the store.
            follower = try await ChangeFollower.fromNow(store: store)
        }
        guard var follower else { return }
        let changes = try await follower.next()
        self.follower = follower
        for machine in changes {
            newest += 1
            recent.append(FeedItem(number: newest, machine: machine))
        }
        if recent.count > kept { recent.removeFirst(recent.count - kept) }
    }
}
