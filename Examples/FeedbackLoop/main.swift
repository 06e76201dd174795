// feedback-loop: the paging example of the feedback-loop article, on a machine actor.
// The machine owns the screen's data (the page and its items); transitions compute the next
// data from the current data and the event. Entering `loading` runs the side effect (an async
// call to a simulated paging API); its result comes back into the machine as an event. The
// schema is `Paging.schema(fetch:)`, in Examples/Shared. A scripted user pages forward and back,
// hits a failing page, and refreshes. Usage: swift run feedback-loop
import ActorFSM
import ExampleSchemas

/// A paging API with latency; page 2 fails the first time it is asked for.
actor TrendingAPI {
    private var failedOnce = false
    func fetch(page: Int) async throws -> [String] {
        try await Task.sleep(for: .milliseconds(5))
        if page == 2 && !failedOnce {
            failedOnce = true
            throw CancellationError()
        }
        return (0..<3).map { "gif \(page * 3 + $0)" }
    }
}

let api = TrendingAPI()
let screen = try Paging.schema { page in try await api.fetch(page: page) }

let machine = Machine(schema: screen, id: "trending", data: Paging.Data())
let records = await machine.records()
let printer = Task {
    for await record in records { print("  \(record.source) --\(record.eventDescription)--> \(record.target)") }
}
/// Plays the user: sends each intent, then waits on the state stream until the screen settles
/// on loaded or failed. Returns what the screen showed after each intent.
func play(_ intents: [FeedEvent]) async throws -> [Screen] {
    var states = await machine.stateChanges().makeAsyncIterator()
    _ = await states.next()   // the current state, idle
    var shown: [Screen] = []
    for intent in intents {
        try await machine.send(intent)
        while let state = await states.next(), state != .loaded && state != .failed {}
        shown.append(await machine.state)
    }
    return shown
}

print("Script:")
let shown = try await play([.refresh, .next, .next, .refresh, .next, .previous])
await machine.shutdown()
await printer.value
print("\nScreens after each intent: \(shown.map { "\($0)" }.joined(separator: ", "))")
let final = await machine.data
print("Final page: \(final.page), showing \(final.items.joined(separator: ", "))")
