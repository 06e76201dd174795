import ActorFSMDurability

/// What the inspector's page may change, and the token a request needs to change it.
///
/// Without actions an inspector only reads. With them, its timeline offers an operator's
/// verbs on the machine shown, each recorded in the machine's history with the reason the
/// operator types. A request that acts must carry the token as `Authorization: Bearer TOKEN`
/// (never a cookie, so another site's form cannot borrow it), come from the inspector's own
/// origin when it names one, and send JSON.
///
/// ```swift
/// let actions = InspectorActions(opening: { try SQLiteStore(path: "orders.sqlite") }, closing: { $0.close() })
/// print("Actions: http://127.0.0.1:8080/#token=\(actions.token)")
/// let inspector = Inspector(store: try SQLiteReader(path: "orders.sqlite"), title: "Orders", actions: actions)
/// ```
public struct InspectorActions: Sendable {
    /// An operator's verb, as the page and its endpoint name it.
    public enum Verb: String, Sendable, CaseIterable, Codable {
        /// The machine takes no event until it is resumed.
        case pause
        /// A paused machine runs again.
        case resume
        /// The machine is sent its cancelling event, or ends for good.
        case cancel
        /// The machine's failed event is processed again.
        case retry

        /// The verb as a store's selection of machines names it.
        var request: OperatorRequest.Verb {
            switch self {
            case .pause: .pause
            case .resume: .resume
            case .cancel: .cancel
            case .retry: .retry
            }
        }
    }

    /// The secret a request that acts presents: whoever holds it can change every machine.
    public let token: String
    /// Origins other than the inspector's own (`https://ops.example.com`, say, behind a proxy
    /// that rewrites `Host`) whose pages may act.
    public let trustedOrigins: Set<String>
    let perform: @Sendable (_ verb: Verb, _ machine: String, _ reason: String) async throws -> Void

    /// Actions that `perform` carries out: in an application that serves the inspector beside
    /// its durable supervisor, the supervisor's own `pause(_:reason:)`, `resume(_:reason:)`,
    /// `cancel(_:reason:)` and `retry(_:reason:)`, so that a machine the application runs is
    /// changed where it runs.
    ///
    /// - Parameters:
    ///   - token: the secret a request presents; a new random one by default.
    ///   - trustedOrigins: origins besides the inspector's own whose pages may act.
    ///   - perform: carries out `verb` on the machine with the id given, recording the reason;
    ///     what it throws is answered with 409 Conflict and its message.
    public init(
        token: String = InspectorActions.newToken(), trustedOrigins: Set<String> = [],
        perform: @escaping @Sendable (_ verb: Verb, _ machine: String, _ reason: String) async throws -> Void
    ) {
        self.token = token
        self.trustedOrigins = Set(trustedOrigins.map { $0.lowercased() })
        self.perform = perform
    }

    /// Actions on machines that no process runs, written into the store that `open` opens for
    /// each act and `close` closes right after it. A SQLite file the application holds cannot
    /// be opened, and a machine another live process holds (on PostgreSQL) cannot be changed
    /// from here: such an act is answered with 409 and changes nothing. An application that
    /// serves the inspector acts through its supervisor instead (``init(token:trustedOrigins:perform:)``),
    /// which reaches machines other processes hold.
    ///
    /// - Parameters:
    ///   - token: the secret a request presents; a new random one by default.
    ///   - trustedOrigins: origins besides the inspector's own whose pages may act.
    ///   - open: opens the store as a writer (`SQLiteStore`, `PostgresStore`).
    ///   - close: closes what `open` opened.
    public init<Store: MachineStore & StoreInspection>(
        token: String = InspectorActions.newToken(), trustedOrigins: Set<String> = [],
        opening open: @escaping @Sendable () throws -> Store, closing close: @escaping @Sendable (Store) -> Void
    ) {
        self.init(token: token, trustedOrigins: trustedOrigins) { verb, machine, reason in
            let store = try open()
            defer { close(store) }
            switch verb {
            case .pause: try await store.pause(machine: machine, reason: reason)
            case .resume: try await store.resume(machine: machine, reason: reason)
            case .cancel: try await store.cancel(machine: machine, reason: reason)
            case .retry: try await store.retry(machine: machine, reason: reason)
            }
        }
    }

    /// A new token: 32 random bytes from the system's generator, as 64 hexadecimal digits.
    public static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let text = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }.joined()
    }
}
