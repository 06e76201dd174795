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

    init(url: String, namespace: String?) {
        self.url = url
        self.namespace = namespace
    }

    /// Makes the summaries again, or waits for the catch-up running. If it fails (the database
    /// is out of reach, the connection may not write), the query reads the summaries as they are.
    func run() async {
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
        guard let connection = try? PostgresConnection(url: url, searchPath: namespace) else { return }
        defer { connection.close() }
        guard (try? connection.query(PostgresSchema.lockCatchUp)) != nil else { return }
        try? connection.catchUpSummaries()
        _ = try? connection.query(PostgresSchema.unlockCatchUp)
    }
}
