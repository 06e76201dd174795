import ActorFSM
import Synchronization
import Testing

/// The guide's turnstile, for machines named by text.
enum Turnstile: MachineDefinition {
    enum State: Hashable, Sendable { case locked, unlocked, alarming }
    enum Event: Hashable, Sendable { case coin, pass, reset }
}

/// The same turnstile, for machines named by number.
enum NumberedTurnstile: MachineDefinition {
    typealias State = Turnstile.State
    typealias Event = Turnstile.Event
    typealias ID = Int
}

/// What a numbered turnstile's machine or supervisor throws.
typealias TurnstileError = MachineError<NumberedTurnstile>

typealias State = Turnstile.State
typealias Event = Turnstile.Event
enum Enforcement: MatchingPredicate { case weak, strong }
enum Reward: MatchingPredicate { case positive, negative }
enum A: MatchingPredicate { case x, y, z }
enum B: MatchingPredicate { case x, y, z }
enum C: MatchingPredicate { case x, y, z }

/// Records what actions did, in order, from any task.
final class Log: Sendable {
    private let entries = Locked<[String]>([])

    var lines: [String] { entries.withLock { $0 } }

    func record(_ line: String) { entries.withLock { $0.append(line) } }

    /// An action that records `line`.
    func action(_ line: String) -> @Sendable () -> Void { { self.record(line) } }
}

/// Drives a schema the way a machine does (exit, transition actions, entry), so tests can check
/// which actions a table runs without the runtime.
struct Driver<D: MachineDefinition> {
    let schema: Schema<D>
    let id: D.ID
    let data: D.Data
    private(set) var state: D.State

    init(_ schema: Schema<D>, id: D.ID, data: D.Data) {
        self.id = id
        self.data = data
        self.schema = schema
        self.state = schema.initialState
    }

    @discardableResult
    mutating func send(_ event: D.Event, predicates: PredicateContext = .none) async throws -> Resolution<D> {
        let resolution = schema.resolve(event, in: state, predicates: predicates, data: data)
        guard case .transition(let transition) = resolution else { return resolution }
        let context = TransitionContext<D>(event: event, source: state, target: transition.target, predicates: predicates, id: id, data: data)
        try await schema.exitActions(for: transition).run(in: context)
        try await transition.actions.run(in: context)
        state = transition.target
        try await schema.entryActions(for: transition).run(in: context)
        return resolution
    }
}

extension Driver where D.Data == Void {
    init(_ schema: Schema<D>, id: D.ID) { self.init(schema, id: id, data: ()) }
}

extension Driver where D.ID == String, D.Data == Void {
    init(_ schema: Schema<D>) { self.init(schema, id: "driver") }
}

extension Resolution {
    var target: State? { firingTransition?.target }
    var unhandledKind: UnhandledReason.Kind? { unhandledReason?.kind }
    var unhandledReason: UnhandledReason? {
        if case .unhandled(let reason) = self { reason } else { nil }
    }
    var isConditionFalse: Bool {
        if case .conditionFalse = self { true } else { false }
    }
}

/// Builds a schema expected to fail and returns its diagnostics.
func diagnostics<D: MachineDefinition>(
    _ build: () throws -> Schema<D>
) -> [SchemaError.Diagnostic] {
    do {
        _ = try build()
        return []
    } catch let error as SchemaError {
        return error.diagnostics
    } catch {
        Issue.record("unexpected error \(error)")
        return []
    }
}
