#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

import ActorFSM
import ActorFSMDurability

/// Makes again the summaries that dead processes left waiting, before a store or a reader
/// answers a query: on a thread and a connection of its own, since reading the whole journal
/// for them takes long enough on a large store that the store's thread, which renews the
/// node's life, must not wait for it. Queries that ask meanwhile wait for the one catch-up
/// running; across processes, an advisory lock lets one catch up at a time, and the others
/// find nothing left to do.
final class SummaryCatchUp: Sendable {
    private let url: String
    private let namespace: String?
    /// The queries waiting for the catch-up running, if one is.
    private let waiting = Locked<[CheckedContinuation<Void, Never>]?>(nil)
    /// When the last catch-up failed: the next is tried a minute later, not at every query of
    /// a reader whose role may not write.
    private let failedAt = Locked<ContinuousClock.Instant?>(nil)

    init(url: String, namespace: String?) {
        self.url = url
        self.namespace = namespace
    }

    /// Makes the summaries again, or waits for the catch-up running. If it fails (the database
    /// is out of reach, the connection may not write), the query reads the summaries as they are.
    func run() async {
        if let failed = failedAt.withLock({ $0 }), ContinuousClock.now < failed + .seconds(60) { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let starts = waiting.withLock { waiting in
                defer { waiting = (waiting ?? []) + [continuation] }
                return waiting == nil
            }
            guard starts else { return }
            let thread = startThread(name: "summaries catch-up") { [self] in
                catchUp()
                for continuation in waiting.withLock({ waiting in
                    defer { waiting = nil }
                    return waiting ?? []
                }) { continuation.resume() }
            }
            pthread_detach(thread)
        }
    }

    private func catchUp() {
        do throws(StoreError) {
            let connection = try PostgresConnection(url: url, searchPath: namespace)
            defer { connection.close() }
            try connection.query(PostgresSchema.lockCatchUp)
            defer { _ = try? connection.query(PostgresSchema.unlockCatchUp) }
            try connection.catchUpSummaries()
            failedAt.withLock { $0 = nil }
        } catch {
            failedAt.withLock { $0 = .now }
        }
    }
}
