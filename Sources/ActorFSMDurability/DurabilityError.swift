import ActorFSM

/// Why a durable machine could not be restored from its store.
public struct DurabilityError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        enum Code: Sendable, Hashable { case unknownState, undecodable, corruptEntry, storeFailed, heldElsewhere, cancelled, incompatible }
        let code: Code

        /// The stored state is not one of the schema's, and no migration maps it.
        public static let unknownState = Self(code: .unknownState)
        /// A stored value could not be decoded with the current types (nor migrated).
        public static let undecodable = Self(code: .undecodable)
        /// An entry's checksum does not match its bytes: it was torn or damaged.
        public static let corruptEntry = Self(code: .corruptEntry)
        /// The store failed to read or write.
        public static let storeFailed = Self(code: .storeFailed)
        /// Another live process holds the machine's lease (a store shared by several processes):
        /// that process runs the machine.
        public static let heldElsewhere = Self(code: .heldElsewhere)
        /// An operator cancelled the machine: it has ended for good, and is not restored.
        public static let cancelled = Self(code: .cancelled)
        /// The store holds running machines in states that the schema neither has nor maps
        /// through its migration (``CompatibilityReport``): the supervisor restores none.
        public static let incompatible = Self(code: .incompatible)

        /// The kind's name.
        public var description: String { "\(code)" }
    }

    /// What went wrong.
    public let kind: Kind
    /// The machine's id, as the store holds it.
    public let machine: String
    /// The sequence number of the entry concerned, 0 if none.
    public let sequenceNumber: UInt64
    /// What the user acts on: the stored value, the decoder's or the store's message.
    public let detail: String

    package init(_ kind: Kind, machine: String, sequenceNumber: UInt64 = 0, detail: String) {
        self.kind = kind
        self.machine = machine
        self.sequenceNumber = sequenceNumber
        self.detail = detail
    }

    /// The message.
    public var description: String {
        let entry = sequenceNumber == 0 ? "" : " (entry \(sequenceNumber))"
        switch kind.code {
        case .unknownState:
            return "machine \(machine)\(entry): the stored state \(detail) is not in the schema; "
                + "give Durability a SchemaMigration that maps it to a current state"
        case .undecodable:
            return "machine \(machine)\(entry): \(detail); give Durability a SchemaMigration that reads it"
        case .corruptEntry:
            return "machine \(machine)\(entry): \(detail); the entry is not applied"
        case .storeFailed:
            return "machine \(machine): the store failed: \(detail)"
        case .heldElsewhere:
            return "machine \(machine): another live process holds its lease and runs it; \(detail)"
        case .cancelled:
            return "machine \(machine)\(entry) was cancelled by an operator (\(detail)) and is not restored"
        case .incompatible:
            return "the store holds machines of \(machine) that this schema cannot take up, so none was restored: \(detail)"
        }
    }
}
