import ActorFSM

/// One step of a ``GeneratedPath``: an event with a context, or a timeout the clock is advanced
/// for, and the transition it is meant to fire.
public struct PathStep<Definition: MachineDefinition>: Sendable, CustomStringConvertible {
    /// What a step gives the machine.
    public enum Input: Sendable {
        /// An event sent with these predicates.
        case event(Definition.Event, PredicateContext)
        /// The machine's `ManualClock` advanced by this duration, for an `after(…)` transition.
        /// A timeout is matched with the machine's standing predicates: the context is the one
        /// its row needs (empty for most), which `making` sets from the path if it is not.
        case timeout(Duration, PredicateContext)
    }

    /// What the step gives the machine.
    public let input: Input
    /// The transition it is meant to fire.
    public let transition: Transition<Definition>
    /// The rows whose conditions decide whether it fires: its own, if it has one, and the
    /// `firstOf` alternatives tried before it, whose conditions must not hold. Conditions read
    /// the machine's data, which the generator does not know.
    public let decidingRows: [Transition<Definition>]
    /// The transition's index in the schema's `Schema.transitions`.
    let index: Int

    /// `locked --coin--> unlocked`, with `[if conditions allow]` when conditions decide it.
    public var description: String {
        let transition = self.transition
        let context = switch input {
        case .event(_, let context), .timeout(_, let context): context
        }
        let predicates = context.isEmpty ? "" : " \(context)"
        return "\(transition.source) --\(transition.eventDescription)\(predicates)--> \(transition.target)"
            + (decidingRows.isEmpty ? "" : " [if conditions allow]")
    }
}

/// A sequence of steps from a schema's initial state that ends with a transition no shorter path
/// ends with: ``GeneratedPaths`` makes one per transition not on the way to another.
public struct GeneratedPath<Definition: MachineDefinition>: Sendable, CustomStringConvertible {
    /// The path's place among its schema's paths, from 0: shortest first.
    public let index: Int
    /// The steps, in order.
    public let steps: [PathStep<Definition>]

    /// The transitions the steps are meant to fire, in order.
    public var transitions: [Transition<Definition>] { steps.map(\.transition) }

    /// `#2: locked --coin--> unlocked --pass--> locked`.
    public var description: String {
        guard let first = steps.first else { return "#\(index): (empty)" }
        return "#\(index): \(first.transition.source)" + steps.map {
            " --\($0.transition.eventDescription)--> \($0.transition.target)"
        }.joined()
    }
}
