// feedback-loop: the paging example of the feedback-loop article, on a machine actor.
// The machine owns the screen's data (the page and its items); transitions compute the next
// data from the current data and the event. Entering `loading` runs the side effect (an async
// call to a simulated paging API); its result comes back into the machine as an event. A scripted user pages forward and back, hits a
// failing page, and refreshes. Usage: swift run feedback-loop
import ActorFSM

/// What the screen shows.
enum Screen: Hashable, Sendable { case idle, loading, loaded, failed }

/// What happens: user intents, and the side effect's results feeding back.
enum FeedEvent: CaseKeyed, CustomStringConvertible {
    case refresh, next, previous
    case loaded(page: Int, items: [String])
    case loadingFailed(page: Int)

    enum CaseKey: Hashable, Sendable { case refresh, next, previous, loaded, loadingFailed }
    var caseKey: CaseKey {
        switch self {
        case .refresh: .refresh
        case .next: .next
        case .previous: .previous
        case .loaded: .loaded
        case .loadingFailed: .loadingFailed
        }
    }

    var description: String {
        switch self {
        case .loaded(let page, let items): "loaded(page \(page): \(items.joined(separator: ", ")))"
        case .loadingFailed(let page): "loadingFailed(page \(page))"
        default: "\(caseKey)"
        }
    }
}

/// The paging screen's types: finite states, and the data the machine carries beside them.
enum Paging: MachineDefinition {
    typealias State = Screen
    typealias Event = FeedEvent
    struct Data: Sendable {
        var page = 0
        var items: [String] = []
    }
}

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
let screen = try Schema<Paging>(initial: .idle) {
    // The feedback: entering `loading` loads the current page, and posts the outcome back.
    let load = Actions<Paging> { context in
        let page = context.data.page
        do {
            try context.tryPost(.loaded(page: page, items: try await api.fetch(page: page)))
        } catch {
            try context.tryPost(.loadingFailed(page: page))
        }
    }
    define(.idle) { when(.refresh) | then(.loading) }
    define(.loading, onEntry: load) {
        when(.loaded) | then(.loaded) | update { (screen: inout Paging.Data, event: FeedEvent) in
            if case .loaded(_, let items) = event { screen.items = items }
        }
        when(.loadingFailed) | then(.failed)
    }
    define(.loaded) {
        when(.refresh) | then(.loading)
        when(.next) | then(.loading) | update { $0.page += 1 }
        when(.previous) | then(.loading) | update { $0.page = max(0, $0.page - 1) }
    }
    define(.failed) { when(.refresh) | then(.loading) | update { $0.page = 0 } }
}

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
