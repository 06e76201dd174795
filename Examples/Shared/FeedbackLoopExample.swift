import ActorFSM

// The paging screen of the feedback-loop article: the machine owns the screen's data (the page
// and its items); transitions compute the next data from the current data and the event.

/// What the screen shows.
public enum Screen: Hashable, Sendable { case idle, loading, loaded, failed }

/// What happens: user intents, and the side effect's results feeding back.
public enum FeedEvent: CaseKeyed, CustomStringConvertible {
    case refresh, next, previous
    case loaded(page: Int, items: [String])
    case loadingFailed(page: Int)

    /// The events by case, as the table matches them.
    public enum CaseKey: Hashable, Sendable { case refresh, next, previous, loaded, loadingFailed }
    /// The event's case.
    public var caseKey: CaseKey {
        switch self {
        case .refresh: .refresh
        case .next: .next
        case .previous: .previous
        case .loaded: .loaded
        case .loadingFailed: .loadingFailed
        }
    }

    /// The event, with a page's number and items.
    public var description: String {
        switch self {
        case .loaded(let page, let items): "loaded(page \(page): \(items.joined(separator: ", ")))"
        case .loadingFailed(let page): "loadingFailed(page \(page))"
        default: "\(caseKey)"
        }
    }
}

/// The paging screen's types: finite states, and the data the machine carries beside them.
public enum Paging: MachineDefinition {
    public typealias State = Screen
    public typealias Event = FeedEvent
    /// The screen's page and the items it shows.
    public struct Data: Sendable {
        /// The page shown or loading.
        public var page = 0
        /// Its items.
        public var items: [String] = []

        /// The first page, empty.
        public init() {}
    }
}

extension Paging {
    /// The paging screen: entering `loading` loads the current page with `fetch`, and posts the
    /// outcome back into the machine as an event.
    public static func schema(fetch: @escaping @Sendable (Int) async throws -> [String]) throws -> Schema<Paging> {
        try Schema<Paging>(initial: .idle) {
            // The feedback: entering `loading` loads the current page, and posts the outcome back.
            let load = Actions<Paging> { context in
                let page = context.data.page
                do {
                    try context.tryPost(.loaded(page: page, items: try await fetch(page)))
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
    }
}
