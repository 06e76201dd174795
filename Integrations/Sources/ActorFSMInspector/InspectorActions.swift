import ActorFSM
import ActorFSMDurability

/// What the inspector's page may change, and the token a request needs to change it.
///
/// Without actions an inspector only reads. With them, its timeline offers an operator's
/// verbs on the machine shown, and its list an act on every machine its filters select, each
/// recorded in the machine's history with the reason the operator types. A request that acts
/// must carry the token as `Authorization: Bearer TOKEN` (never a cookie, so another site's
/// form cannot borrow it), come from the inspector's own origin when it names one, and send
/// JSON.
///
/// ```swift
/// let actions = InspectorActions(opening: { try SQLiteStore(path: "orders.sqlite") }, closing: { $0.close() },
///                                asking: { try SQLiteRequests(path: "orders.sqlite") })
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
        /// The machine is sent an event the operator names.
        case signal

        /// The verb as an operator's request names it.
        var request: OperatorRequest.Verb {
            switch self {
            case .pause: .pause
            case .resume: .resume
            case .cancel: .cancel
            case .retry: .retry
            case .signal: .signal
            }
        }
    }

    /// The secret a request that acts presents: whoever holds it can change every machine.
    public let token: String
    /// Origins other than the inspector's own (`https://ops.example.com`, say, behind a proxy
    /// that rewrites `Host`) whose pages may act.
    public let trustedOrigins: Set<String>
    /// Carries out an act on a machine of the schema named by the second argument.
    let perform: @Sendable (_ act: InspectorAct, _ schema: String) async throws -> Void

    /// Actions that `perform` carries out, in an application that serves the inspector beside
    /// its durable supervisor (see ``init(token:trustedOrigins:supervisor:)``, which does so with
    /// the supervisor's own verbs).
    ///
    /// - Parameters:
    ///   - token: the secret a request presents; a new random one by default.
    ///   - trustedOrigins: origins besides the inspector's own whose pages may act.
    ///   - perform: carries out the act, recording its reason; what it throws is answered with
    ///     409 Conflict and its message.
    public init(
        token: String = InspectorActions.newToken(), trustedOrigins: Set<String> = [],
        perform: @escaping @Sendable (_ act: InspectorAct) async throws -> Void
    ) {
        self.init(token: token, trustedOrigins: trustedOrigins, performing: { act, _ in try await perform(act) })
    }

    /// Actions that `supervisor` carries out with its own `pause(_:reason:)`, `resume(_:reason:)`,
    /// `cancel(_:reason:)`, `retry(_:reason:)` and `signal(_:_:predicates:reason:)` (its
    /// `carryOut(_:)`), so that a machine the application runs is changed where it runs, and one
    /// another process holds is asked of that process through the store.
    ///
    /// - Parameters:
    ///   - token: the secret a request presents; a new random one by default.
    ///   - trustedOrigins: origins besides the inspector's own whose pages may act.
    ///   - supervisor: the durable supervisor of the machines' schema.
    public init<Definition: MachineDefinition>(
        token: String = InspectorActions.newToken(), trustedOrigins: Set<String> = [], supervisor: Supervisor<Definition>
    ) where Definition.State: Codable, Definition.Event: Codable, Definition.ID: LosslessStringConvertible {
        self.init(token: token, trustedOrigins: trustedOrigins, performing: { act, schema in
            let answer = await supervisor.carryOut(act.request(schema: schema))
            if !answer.succeeded { throw ActRefused(message: answer.message) }
        })
    }

    /// Actions on a store that `open` opens as a writer for each act and `close` closes right
    /// after it. A machine no process runs is changed in the store. When the store is held by
    /// another process (a SQLite file the application holds), or the machine is (on
    /// PostgreSQL), the act is asked of that process as an ``OperatorRequest``, through the
    /// queue `asking` opens (`SQLiteRequests` beside a SQLite file; a `PostgresStore` is its own
    /// queue), and the inspector waits up to `patience` for its answer. A signal is always asked
    /// through `asking` (only the application's code processes an event). Without a queue, such
    /// acts are answered with 409 and change nothing.
    ///
    /// - Parameters:
    ///   - token: the secret a request presents; a new random one by default.
    ///   - trustedOrigins: origins besides the inspector's own whose pages may act.
    ///   - patience: how long an act asked of another process waits for its answer; a request
    ///     that no process took by then is withdrawn.
    ///   - open: opens the store as a writer (`SQLiteStore`, `PostgresStore`).
    ///   - close: closes what `open` opened.
    ///   - asking: opens the queue that carries requests to the application (`SQLiteRequests`
    ///     beside a SQLite file, a `PostgresStore`); it is released after each act.
    public init<Store: MachineStore & StoreInspection>(
        token: String = InspectorActions.newToken(), trustedOrigins: Set<String> = [], patience: Duration = .seconds(30),
        opening open: @escaping @Sendable () throws -> Store, closing close: @escaping @Sendable (Store) -> Void,
        asking: (@Sendable () throws -> any OperatorRequestQueue)? = nil
    ) {
        let opening = StoreActs(open: open, close: close, asking: asking, patience: patience)
        self.init(token: token, trustedOrigins: trustedOrigins, performing: { act, schema in try await opening.carryOut(act, schema: schema) })
    }

    /// Actions that `perform` carries out, given the act and the name of its machine's schema.
    init(token: String, trustedOrigins: Set<String>, performing perform: @escaping @Sendable (InspectorAct, String) async throws -> Void) {
        self.token = token
        self.trustedOrigins = Set(trustedOrigins.map { $0.lowercased() })
        self.perform = perform
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

/// An act the process that runs the machine refused, or did not answer.
struct ActRefused: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
