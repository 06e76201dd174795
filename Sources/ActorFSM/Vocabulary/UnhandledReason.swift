/// Why an event causes no transition.
///
/// ```swift
/// if case .unhandled(let reason) = schema.resolve(.pass, in: .locked), reason.kind == .missingPredicate {
///     print(reason) // "no Enforcement predicate given; the transitions for this event depend on it"
/// }
/// ```
public struct UnhandledReason: Sendable, Hashable, CustomStringConvertible {
    /// What kind of reason it is.
    public let kind: Kind
    /// The predicate type involved, for the predicate kinds.
    public let predicateType: String?

    @usableFromInline
    package init(_ kind: Kind, _ predicateType: String? = nil) {
        self.kind = kind
        self.predicateType = predicateType
    }

    /// A sentence that says what happened.
    public var description: String {
        let type = predicateType ?? "?"
        return switch kind.code {
        case .unknownEvent: "the event appears in no transition of the schema"
        case .unknownState: "the state appears nowhere in the schema"
        case .noTransition: "no transition of the current state responds to the event with these predicates"
        case .missingPredicate: "no \(type) predicate given; the transitions for this event depend on it"
        case .unknownPredicate: "\(type) appears in no matching statement of the schema"
        case .ambiguousPredicate: "more than one \(type) predicate given; give one case of each type"
        case .postponedCapacityReached:
            "the transition postpones the event, but the machine already holds as many postponed events as its postponedCapacity allows"
        }
    }

    /// The kinds of reason. Compare with `==`; new kinds may be added.
    public struct Kind: Sendable, Hashable {
        /// The kind, as a closed enum; the public face is the struct, so kinds can be added.
        @usableFromInline
        package enum Code: Sendable, Hashable, CaseIterable {
            case unknownEvent, unknownState, noTransition, missingPredicate, unknownPredicate, ambiguousPredicate
            case postponedCapacityReached
        }
        /// Which kind this is.
        @usableFromInline package let code: Code

        /// The kind `code`.
        @usableFromInline package init(code: Code) { self.code = code }

        // Computed rather than stored: a stored static is reached through a lazy-initialisation
        // check, which a lookup that finds no transition paid on every event.

        /// The event appears in no transition of the schema.
        @inlinable public static var unknownEvent: Kind { Kind(code: .unknownEvent) }
        /// The state appears nowhere in the schema.
        @inlinable public static var unknownState: Kind { Kind(code: .unknownState) }
        /// The state has no transition for this event and these predicates.
        @inlinable public static var noTransition: Kind { Kind(code: .noTransition) }
        /// The transitions for this event depend on a predicate type the event did not bring.
        @inlinable public static var missingPredicate: Kind { Kind(code: .missingPredicate) }
        /// The event brought a predicate type the schema never mentions.
        @inlinable public static var unknownPredicate: Kind { Kind(code: .unknownPredicate) }
        /// The event brought two cases of one predicate type.
        @inlinable public static var ambiguousPredicate: Kind { Kind(code: .ambiguousPredicate) }
        /// The transition postpones the event, and the machine holds as many postponed events
        /// as ``MachineConfiguration/postponedCapacity`` allows.
        @inlinable public static var postponedCapacityReached: Kind { Kind(code: .postponedCapacityReached) }
    }
}
