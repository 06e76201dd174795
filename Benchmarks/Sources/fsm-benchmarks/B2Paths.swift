import ActorFSM
import ActorFSMTesting

/// B2's 100 transitions covered by generated paths: the paths made from the compiled table
/// (every combination of the predicate cases its lookups depend on is tried), then each run on
/// a fresh machine, as a test of the table would.
func measureGeneratedPaths(_ settings: Settings) async throws -> [Measurement] {
    let clock = ContinuousClock()
    let schema = try predicateSchema(Counter())
    let generation = await measure("B2 path generation, 100 transitions", unit: "ms", repetitions: settings.repetitions,
                                       units: 1, scale: 1e6) {
        var paths: GeneratedPaths<B2Table>?
        let elapsed = clock.measure { paths = GeneratedPaths(schema) }
        return (elapsed, paths!.paths.count)
    }
    let runs = try await measure("B2 generated paths run, 100 transitions", unit: "ms", repetitions: settings.repetitions,
                                 units: 1, scale: 1e6) {
        let start = clock.now
        let coverage = try await GeneratedPaths(schema).run { path, manual in
            Machine(schema: schema, id: path.index, configuration: MachineConfiguration(clock: manual))
        }
        guard coverage.uncovered.isEmpty else { throw BenchmarkFailure("B2's paths left \(coverage.uncovered.count) transitions") }
        return (clock.now - start, coverage.stepsRun)
    }
    return [generation, runs]
}
