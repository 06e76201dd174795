import ActorFSM
import Synchronization
import Testing

enum State: Hashable, Sendable { case locked, unlocked, alarming }
enum Event: Hashable, Sendable { case coin, pass, reset }
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
struct Driver<S: Hashable & Sendable, E: Sendable> {
    let schema: Schema<S, E>
    private(set) var state: S

    init(_ schema: Schema<S, E>) {
        self.schema = schema
        self.state = schema.initialState
    }

    @discardableResult
    mutating func send(_ event: E, predicates: PredicateContext = .none) async throws -> Resolution<S, E> {
        let resolution = schema.resolve(event, in: state, predicates: predicates)
        guard case .transition(let transition) = resolution else { return resolution }
        let context = TransitionContext(event: event, source: state, target: transition.target, predicates: predicates)
        try await schema.exitActions(for: transition).run(in: context)
        try await transition.actions.run(in: context)
        state = transition.target
        try await schema.entryActions(for: transition).run(in: context)
        return resolution
    }
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
func diagnostics<S: Hashable & Sendable, E: Sendable>(
    _ build: () throws -> Schema<S, E>
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
