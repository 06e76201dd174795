import ActorFSMDurability
import Foundation
import Hummingbird

/// `POST api/act`: checks who asks, then carries out one verb on one machine, or on every machine
/// a listing's filter selects that the verb can change (after a dry run that counts them), one
/// act at a time, and answers with the machine as the store holds it afterwards, or a report.
struct ActionEndpoint: Sendable {
    let actions: InspectorActions
    let store: any StoreInspection
    private let queue = ActQueue()

    init(actions: InspectorActions, store: any StoreInspection) {
        self.actions = actions
        self.store = store
    }

    /// What the page sends: a machine, or a listing's filter as its query string
    /// (`state=paid&status=running&olderThan=3600`), with `dryRun` to count first; a signal
    /// names its event, with its values as JSON text in `payload`.
    struct Act: Decodable {
        var verb: InspectorActions.Verb
        var machine: String?
        var filter: String?
        var reason: String
        var dryRun: Bool?
        var event: String?
        var payload: String?

        /// The act on `machine`.
        func on(_ machine: String) -> InspectorAct {
            InspectorAct(verb: verb, machine: machine, reason: reason,
                         event: event.map { .named($0.trimmingCharacters(in: .whitespaces), payload: payload) })
        }
    }

    /// The machine after the act, or what an act on a filter did or would do.
    struct Acted: Encodable {
        var machine: StoredMachine?
        var report: Report?
    }

    /// What an act on a filter did (or, for a dry run, would do).
    struct Report: Encodable {
        var dryRun: Bool
        /// The machines the filter selects that the verb can change.
        var selected: Int
        /// The first hundred of them.
        var firstIDs: [String]
        var changed: Int
        var failures: [Failure]

        struct Failure: Encodable {
            var machine: String
            var reason: String
        }
    }

    func respond(to request: Request, api: InspectorAPI) async throws -> Response {
        if let refusal = refusal(of: request) {
            var response = InspectorAPI.failure(refusal)
            if refusal.status == .unauthorized { response.headers[.wwwAuthenticate] = "Bearer" }
            return response
        }
        return try await api.respond { () async throws -> Acted in
            let act = try await Self.decoded(request)
            let names = try await schemaNames()
            if let filter = act.filter, act.machine == nil { return Acted(report: try await carryOut(act, on: filter, names: names)) }
            guard let machine = act.machine else {
                throw InspectorError(status: .badRequest, message: "an act names a machine, or a filter of machines")
            }
            guard let stored = try await store.machine(machine) else {
                throw InspectorError(status: .notFound, message: "the store holds no machine \(machine)")
            }
            do {
                try await queue.run { try await actions.perform(act.on(machine), names[stored.summary.fingerprint] ?? "") }
            } catch {
                throw Self.conflict(act.verb, machine, error)
            }
            return Acted(machine: try await store.machine(machine))
        }
    }

    /// Carries out `act` on every machine `filter` selects that its verb can change, one after
    /// the other (nothing for a dry run), and reports what it did.
    private func carryOut(_ act: Act, on filter: String, names: [String: String]) async throws -> Report {
        let query = try MachineFilter(queryString: filter).query
        let selected = try await store.machines(matching: query, changeableBy: act.verb.request)
        var report = Report(dryRun: act.dryRun ?? false, selected: selected.count, firstIDs: selected.prefix(100).map(\.id),
                            changed: 0, failures: [])
        guard !report.dryRun else { return report }
        for machine in selected {
            do {
                try await queue.run { try await actions.perform(act.on(machine.id), names[machine.summary.fingerprint] ?? "") }
                report.changed += 1
            } catch {
                report.failures.append(.init(machine: machine.id, reason: Self.conflict(act.verb, machine.id, error).message))
            }
        }
        return report
    }

    /// The names of the stored schemas, by fingerprint: a request names its machine's schema.
    private func schemaNames() async throws -> [String: String] {
        Dictionary(try await store.storedSchemas().map { ($0.fingerprint, $0.description.name) }, uniquingKeysWith: { first, _ in first })
    }

    /// The conflict an act that `error` refused is answered with.
    private static func conflict(_ verb: InspectorActions.Verb, _ machine: String, _ error: any Error) -> InspectorError {
        if let error = error as? StoreError, error.isLocked {
            return InspectorError(status: .conflict, message: "\(verb) \(machine): \(error). A process runs the "
                                  + "store's machines: act through it (InspectorActions with its supervisor, or with a "
                                  + "queue that asks it), or once it stops")
        }
        return InspectorError(status: .conflict, message: "\(verb) \(machine): \(error)")
    }

    /// Why `request` may not act, if it may not: another site's page (403), no token or a
    /// wrong one (401), or a body that is not JSON (415).
    func refusal(of request: Request) -> InspectorError? {
        if let origin = request.headers[.origin]?.lowercased() {
            let host = request.head.authority?.lowercased() ?? ""
            let own = ["http://" + host, "https://" + host]
            guard own.contains(origin) || actions.trustedOrigins.contains(origin) else {
                return InspectorError(status: .forbidden, message: "a page of \(origin) may not act here")
            }
        }
        let presented = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? $0.dropFirst(7) : nil }
        guard let presented, Self.same(Array(presented.utf8), Array(actions.token.utf8)) else {
            return InspectorError(status: .unauthorized,
                                  message: "acting needs the token the inspector printed, as Authorization: Bearer TOKEN")
        }
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            return InspectorError(status: .unsupportedMediaType, message: "an act is sent as application/json")
        }
        return nil
    }

    private static func decoded(_ request: Request) async throws -> Act {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: 16_384)
        } catch {
            throw InspectorError(status: .contentTooLarge, message: "an act's body is at most 16 KB")
        }
        let act: Act
        do {
            act = try JSONDecoder().decode(Act.self, from: Data(body.readableBytesView))
        } catch {
            let verbs = InspectorActions.Verb.allCases.map(\.rawValue).joined(separator: ", ")
            throw InspectorError(status: .badRequest,
                                 message: "an act is {\"verb\": one of \(verbs), \"machine\": ID, \"reason\": TEXT}, or names a "
                                     + "\"filter\" (a listing's query string) instead of a machine, with \"dryRun\": true to count first")
        }
        try check(signal: act)
        return act
    }

    /// Refuses a signal that names no event, and a payload that is not JSON.
    private static func check(signal act: Act) throws {
        guard act.verb == .signal else { return }
        guard let event = act.event?.trimmingCharacters(in: .whitespaces), !event.isEmpty else {
            throw InspectorError(status: .badRequest, message: "a signal names its \"event\": the case's name, as the event prints")
        }
        if let payload = act.payload, (try? JSONSerialization.jsonObject(with: Data(payload.utf8), options: .fragmentsAllowed)) == nil {
            throw InspectorError(status: .badRequest, message: "a signal's \"payload\" is JSON text: \(payload) is not")
        }
    }

    /// Whether `a` equals `b`, in a time that depends on their lengths only, so that how long a
    /// refusal takes does not tell how much of a guessed token was right.
    static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}

/// Runs acts one after another: two at once would contend for the store's writer (a SQLite
/// file's lock), and an operator's clicks are few.
private actor ActQueue {
    private var tail: Task<Void, Never>?

    func run(_ work: @escaping @Sendable () async throws -> Void) async throws {
        let previous = tail
        let task = Task {
            await previous?.value
            try await work()
        }
        tail = Task { _ = await task.result }
        try await task.value
    }
}
