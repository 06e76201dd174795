#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One machine's journal as a store holds it: what `Replay` (in `ActorFSMTesting`) runs
/// through a new version of its schema, and what `actorfsm export` writes as JSON (each
/// entry's payload in base64), which `JSONDecoder` reads back.
public struct StoredHistory: Sendable, Equatable, Codable {
    /// The machine's id, as the store holds it.
    public let machine: String
    /// Its entries, oldest first.
    public let entries: [JournalEntry]

    /// The history of `machine` made of `entries`.
    public init(machine: String, entries: [JournalEntry]) {
        self.machine = machine
        self.entries = entries.sorted { $0.sequenceNumber < $1.sequenceNumber }
    }

    /// The histories of the machines `query` selects in `store`, page after page, `count` at
    /// most, read beside the store's writer: a sample of production's machines to replay in a
    /// test.
    ///
    /// - Throws: the store's error.
    public static func read(
        from store: any StoreInspection, matching query: MachineQuery = MachineQuery(limit: 1_000), atMost count: Int = .max
    ) async throws(StoreError) -> [StoredHistory] {
        var histories: [StoredHistory] = []
        var query = query
        while histories.count < count {
            let page = try await store.machines(query)
            for machine in page.machines.prefix(count - histories.count) {
                histories.append(StoredHistory(machine: machine.id, entries: try await store.entries(of: machine.id)))
            }
            guard let next = page.next else { break }
            query.after = next
        }
        return histories
    }

    private enum Keys: String, CodingKey { case machine, entries }
    private struct Entry: Codable {
        var sequenceNumber: UInt64
        var payload: String
    }

    /// Reads a history as `actorfsm export` writes it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let machine = try container.decode(String.self, forKey: .machine)
        let entries = try container.decode([Entry].self, forKey: .entries).map { entry in
            guard let payload = Data(base64Encoded: entry.payload) else {
                throw DecodingError.dataCorruptedError(forKey: .entries, in: container,
                                                       debugDescription: "entry \(entry.sequenceNumber) is not base64")
            }
            return JournalEntry(machine: machine, sequenceNumber: entry.sequenceNumber, payload: Array(payload))
        }
        self.init(machine: machine, entries: entries)
    }

    /// Writes the history as `actorfsm export` does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(machine, forKey: .machine)
        try container.encode(entries.map { Entry(sequenceNumber: $0.sequenceNumber, payload: Data($0.payload).base64EncodedString()) },
                             forKey: .entries)
    }
}
