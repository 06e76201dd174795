import ActorFSM
import ActorFSMTesting
import ExampleSchemas
import Testing

/// Generated paths through the feedback loop's paging screen, whose loading posts its own
/// outcome: a path's step that the loading takes first counts.
@Suite(.timeLimit(.minutes(3))) struct FeedbackLoopPathsTests {
    struct Unreachable: Error {}

    @Test func everyTransitionOfThePagingScreenFires() async throws {
        // The events are matched by case: a sample of each.
        let samples: [FeedEvent] = [.refresh, .next, .previous, .loaded(page: 0, items: ["gif 0"]), .loadingFailed(page: 0)]
        let paths = GeneratedPaths(try Paging.schema { _ in [] }, samples: samples)
        #expect(paths.unreachable.isEmpty, "\(paths.unreachable)")
        let coverage = try await paths.run { path, _ in
            // A path through `failed` meets an API that fails; the others one that answers.
            let fails = path.transitions.contains { $0.target == .failed }
            let schema = try Paging.schema { page in
                if fails { throw Unreachable() }
                return ["gif \(page)"]
            }
            return Machine(schema: schema, id: "screen-\(path.index)", data: Paging.Data())
        } checking: { screen, record in
            // A loaded screen shows its page's items.
            if record.target == .loaded { #expect(await screen.data.items == ["gif \(await screen.data.page)"]) }
        }
        #expect(coverage.uncovered.isEmpty, "\(coverage)")
        // Without samples, the first row has no event to send, and nothing beyond it is reached.
        let without = GeneratedPaths(try Paging.schema { _ in [] })
        #expect(without.paths.isEmpty)
        #expect(without.unreachable.first?.reason.description == "its event is matched by case: give a sample of it")
    }
}
