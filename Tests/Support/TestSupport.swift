import ActorFSM
import Synchronization
import Testing

/// The guide's turnstile, for machines named by text.
package enum Turnstile: MachineDefinition {
    package enum State: Hashable, Sendable { case locked, unlocked, alarming }
    package enum Event: Hashable, Sendable { case coin, pass, reset }
}

/// The same turnstile, for machines named by number.
package enum NumberedTurnstile: MachineDefinition {
    package typealias State = Turnstile.State
    package typealias Event = Turnstile.Event
    package typealias ID = Int
}

/// What a numbered turnstile's machine or supervisor throws.
package typealias TurnstileError = MachineError<NumberedTurnstile>

package typealias State = Turnstile.State
package typealias Event = Turnstile.Event
package enum Enforcement: MatchingPredicate { case weak, strong }
package enum Reward: MatchingPredicate { case positive, negative }
package enum A: MatchingPredicate { case x, y, z }
package enum B: MatchingPredicate { case x, y, z }
package enum C: MatchingPredicate { case x, y, z }

/// Records what actions did, in order, from any task.
package final class Log: Sendable {
    package init() {}

    private let entries = Locked<[String]>([])

    package var lines: [String] { entries.withLock { $0 } }

    package func record(_ line: String) { entries.withLock { $0.append(line) } }

    /// An action that records `line`.
    package func action(_ line: String) -> @Sendable () -> Void { { self.record(line) } }
}

/// Drives a schema the way a machine does (exit, transition actions, entry), so tests can check
/// which actions a table runs without the runtime.
package struct Driver<D: MachineDefinition> {
    package let schema: Schema<D>
    package let id: D.ID
    package let data: D.Data
    package private(set) var state: D.State

    package init(_ schema: Schema<D>, id: D.ID, data: D.Data) {
        self.id = id
        self.data = data
        self.schema = schema
        self.state = schema.initialState
    }

    @discardableResult
    package mutating func send(_ event: D.Event, predicates: PredicateContext = .none) async throws -> Resolution<D> {
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
    package init(_ schema: Schema<D>, id: D.ID) { self.init(schema, id: id, data: ()) }
}

extension Driver where D.ID == String, D.Data == Void {
    package init(_ schema: Schema<D>) { self.init(schema, id: "driver") }
}

extension Resolution {
    package var target: State? { firingTransition?.target }
    package var unhandledKind: UnhandledReason.Kind? { unhandledReason?.kind }
    package var unhandledReason: UnhandledReason? {
        if case .unhandled(let reason) = self { reason } else { nil }
    }
    package var isConditionFalse: Bool {
        if case .conditionFalse = self { true } else { false }
    }
}

/// Builds a schema expected to fail and returns its diagnostics.
package func diagnostics<D: MachineDefinition>(
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

/// SwiftyStateMachine's counter: three numbers, stepped up and down.
package enum Counter: MachineDefinition {
    package enum State: Hashable, Sendable, CaseIterable { case one, two, three }
    package enum Event: Hashable, Sendable, CaseIterable { case increment, decrement, reset }
}
