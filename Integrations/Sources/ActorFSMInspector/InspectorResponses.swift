import ActorFSM
import ActorFSMDurability

// What the inspector's JSON endpoints answer: the page's script reads these fields by name.

/// The page's heading, schemas and counts.
struct InspectorOverview: Encodable {
    var title: String
    var schemas: [SchemaSummary]
    var counts: [StateCount]
    /// Whether the page offers an operator's verbs (each request still needs the token).
    var actions: Bool
}

/// A stored schema, without what decoding its entries takes.
struct SchemaSummary: Encodable {
    var fingerprint: String
    var schemaVersion: Int
    var name: String
    var states: [String]
    var finalStates: [String]
    /// What the diagram notes under each state that has notes: actions, child machines.
    var notes: [String: [String]]

    init(_ schema: StoredSchema) {
        fingerprint = schema.fingerprint
        schemaVersion = schema.schemaVersion
        name = schema.description.name
        states = schema.description.states.map(\.name)
        finalStates = schema.description.states.filter(\.isFinal).map(\.name)
        notes = [:]
        for state in schema.description.states where !state.notes.isEmpty { notes[state.name] = state.notes }
    }
}

/// A page of machines and where the next one starts.
struct PageJSON: Encodable {
    var machines: [StoredMachine]
    var next: String?
}

/// A machine and its entries, oldest first.
struct TimelineJSON: Encodable {
    var machine: StoredMachine
    var history: [HistoryEntry]
}

/// Transitions as they were written, each with its number in the feed, and the feed's name.
struct ChangesJSON: Encodable {
    var changes: [FeedItem]
    var newest: Int
    var feed: String
}

/// One change the feed saw: a machine's summary after a write.
struct FeedItem: Encodable, Sendable {
    var number: Int
    var machine: StoredMachine
}
