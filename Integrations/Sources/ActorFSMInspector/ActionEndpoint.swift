import ActorFSMDurability
import Foundation
import Hummingbird

/// `POST api/act`: checks who asks, then carries out one verb on one machine, one act at a time,
/// and answers with the machine as the store holds it afterwards.
struct ActionEndpoint: Sendable {
    let actions: InspectorActions
    let store: any StoreInspection
    private let queue = ActQueue()

    init(actions: InspectorActions, store: any StoreInspection) {
        self.actions = actions
        self.store = store
    }

    /// What the page sends.
    struct Act: Decodable {
        var verb: InspectorActions.Verb
        var machine: String
        var reason: String
    }

    /// The machine after the act.
    struct Acted: Encodable {
        var machine: StoredMachine?
    }

    func respond(to request: Request, api: InspectorAPI) async throws -> Response {
        if let refusal = refusal(of: request) {
            var response = InspectorAPI.failure(refusal)
            if refusal.status == .unauthorized { response.headers[.wwwAuthenticate] = "Bearer" }
            return response
        }
        return try await api.respond { () async throws -> Acted in
            let act = try await Self.decoded(request)
            guard try await store.machine(act.machine) != nil else {
                throw InspectorError(status: .notFound, message: "the store holds no machine \(act.machine)")
            }
            do {
                try await queue.run { try await actions.perform(act.verb, act.machine, act.reason) }
            } catch let error as StoreError where error.isLocked {
                throw InspectorError(status: .conflict, message: "\(act.verb) \(act.machine): \(error). A process runs the "
                                     + "store's machines: act through it (InspectorActions with its supervisor), or once it stops")
            } catch {
                throw InspectorError(status: .conflict, message: "\(act.verb) \(act.machine): \(error)")
            }
            return Acted(machine: try await store.machine(act.machine))
        }
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
        do {
            return try JSONDecoder().decode(Act.self, from: Data(body.readableBytesView))
        } catch {
            let verbs = InspectorActions.Verb.allCases.map(\.rawValue).joined(separator: ", ")
            throw InspectorError(status: .badRequest,
                                 message: "an act is {\"verb\": one of \(verbs), \"machine\": ID, \"reason\": TEXT}")
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
