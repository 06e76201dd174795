import ActorFSM

/// Event sequences that, together, reach every transition of a schema that events can reach:
/// for each transition, the shortest way from the initial state to its state, then its event
/// with a context its row matches (or, for `after(…)`, the timeout). A path that another one
/// starts with is left out, and the paths come shortest first.
///
/// The generator reads the compiled table, not the machine's data: it takes a way through a row
/// with a condition only when there is no other, and it names the rows whose conditions decide
/// each step. ``run(making:checking:)`` runs every path on a fresh machine and reports what
/// fired; ``unreachable`` lists, without running anything, the rows no path can reach.
///
/// ```swift
/// let paths = GeneratedPaths(turnstile)
/// let coverage = try await paths.run { path, clock in
///     Machine(schema: turnstile, id: "gate-\(path.index)", configuration: MachineConfiguration(clock: clock))
/// } checking: { machine, record in
///     #expect(record.outcome.isTransitioned)
/// }
/// #expect(coverage.uncovered.isEmpty, "\(coverage)")
/// ```
public struct GeneratedPaths<Definition: MachineDefinition>: Sendable {
    /// The schema the paths run through.
    public let schema: Schema<Definition>
    /// The paths, shortest first.
    public let paths: [GeneratedPath<Definition>]
    /// The transitions no path reaches, in the schema's order: dead rows (an unreachable state,
    /// a row every context passes by), rows whose event is matched by case and has no sample,
    /// and rows that postpone their event.
    public let unreachable: [UncoveredTransition<Definition>]

    /// The paths through `schema`.
    ///
    /// - Parameters:
    ///   - schema: the table to cover.
    ///   - samples: a value of each `CaseKeyed` event case the table matches, which the paths
    ///     send; events matched by value need none.
    public init(_ schema: Schema<Definition>, samples: [Definition.Event] = []) {
        self.schema = schema
        let graph = PathGraph(schema, samples: samples)
        let ways = graph.shortestWays()
        var unreachable: [UncoveredTransition<Definition>] = []
        var ends: [Int] = []
        for (index, transition) in schema.transitions.enumerated() {
            if let reason = graph.deadReason(of: index, ways: ways) {
                unreachable.append(UncoveredTransition(transition: transition, reason: reason, index: index))
            } else if !graph.leadsOn(index, ways: ways) {
                ends.append(index)
            }
        }
        let sequences = ends.map { ways.way(to: graph.endpoints[$0].source) + [$0] }
        self.paths = sequences.enumerated()
            .sorted { ($0.element.count, $0.offset) < ($1.element.count, $1.offset) }
            .enumerated()
            .map { place, sequence in GeneratedPath(index: place, steps: sequence.element.map(graph.step)) }
        self.unreachable = unreachable
    }
}
