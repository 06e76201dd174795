import ActorFSM
import ActorFSMDurability

/// A predicate decoded in a process that cannot name its type: its type's and its case's names.
/// A distributed machine finds the schema's case again before the machine sees the event
/// (``Schema/resolvingRemotePredicates(_:)``); in a decoded record it prints as the original.
struct RemotePredicate: MatchingPredicate, NamedPredicate {
    static var allCases: [RemotePredicate] { [] }
    let typeName: String
    let caseName: String
}

extension PredicateContext: Codable {
    private struct Named: Codable {
        let type: String
        let value: String
    }

    /// Decodes predicates by their types' and cases' names. The values stand for the original
    /// cases (they print as them); a distributed machine maps them to its schema's cases.
    public init(from decoder: any Decoder) throws {
        let named = try decoder.singleValueContainer().decode([Named].self)
        self = named.isEmpty ? .none : PredicateContext(named.map { RemotePredicate(typeName: $0.type, caseName: $0.value) })
    }

    /// Encodes each predicate as its type's name and its case's: `[{"type": "Enforcement", "value": "weak"}]`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(predicates.map { Named(type: $0.typeName, value: $0.caseName) })
    }
}

extension Schema {
    /// `context` with each predicate decoded from another process replaced by the schema's case
    /// of the same type and case names. Predicates of types the schema does not use are kept as
    /// they are: resolution reports them as `unknownPredicate`, as it would in their process.
    public func resolvingRemotePredicates(_ context: PredicateContext) -> PredicateContext {
        let values = context.predicates
        guard values.contains(where: { $0 is RemotePredicate }) else { return context }
        let types = predicateTypes
        return PredicateContext(values.map { value -> any MatchingPredicate in
            guard let remote = value as? RemotePredicate,
                  let type = types.first(where: { $0.name == remote.typeName }),
                  let match = type.cases.first(where: { $0.caseName == remote.caseName })
            else { return value }
            return match
        })
    }
}
