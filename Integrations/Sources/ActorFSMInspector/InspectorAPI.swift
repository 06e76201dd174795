import ActorFSMDurability
import Foundation
import Hummingbird

/// The inspector's endpoints: what each answers, as JSON or SVG, from the store.
struct InspectorAPI: Sendable {
    let store: any StoreInspection
    let title: String
    let feed: ChangeFeed
    let overviews: OverviewCache
    /// Whether the page offers an operator's verbs.
    let acts: Bool

    /// The title, the stored schemas and the counts per state, read at most a second ago.
    func overview() async throws -> InspectorOverview {
        let (schemas, counts) = try await overviews.overview()
        return InspectorOverview(title: title, schemas: schemas.map(SchemaSummary.init), counts: counts, actions: acts)
    }

    /// The diagram of the schema with the `fingerprint` parameter, counts on its states.
    func diagram(_ parameters: Parameters) async throws -> Response {
        do {
            let fingerprint = try Self.required("fingerprint", in: parameters)
            guard let schema = try await store.storedSchemas().first(where: { $0.fingerprint == fingerprint }) else {
                throw InspectorError(status: .notFound, message: "the store holds no schema with fingerprint \(fingerprint)")
            }
            if let damage = DiagramLayout.damage(in: schema.description) {
                throw InspectorError(status: .unprocessableContent,
                                     message: "the store's description of schema \(fingerprint) is damaged: \(damage)")
            }
            let counts = try await store.counts(of: fingerprint)
            return Self.response(DiagramSVG(schema.description, counts: counts).text, type: "image/svg+xml")
        } catch {
            return Self.failure(error)
        }
    }

    /// A page of machines, filtered by the `state`, `status`, `olderThan` (seconds),
    /// `fingerprint` and `version` parameters, from the `after` cursor, `limit` at most.
    func machines(_ parameters: Parameters) async throws -> PageJSON {
        let page = try await store.machines(try MachineFilter(parameters).query)
        return PageJSON(machines: page.machines, next: page.next.map(MachineFilter.text))
    }

    /// The machine with the `id` parameter and its history.
    func timeline(_ parameters: Parameters) async throws -> TimelineJSON {
        let id = try Self.required("id", in: parameters)
        guard let machine = try await store.machine(id) else {
            throw InspectorError(status: .notFound, message: "the store holds no machine \(id)")
        }
        return TimelineJSON(machine: machine, history: try await store.history(of: id))
    }

    /// The transitions written since feed number `after`, or the newest ones without it.
    func changes(_ parameters: Parameters) async throws -> ChangesJSON {
        let after = try parameters.get("after").flatMap { $0.isEmpty ? nil : $0 }.map { text throws(InspectorError) -> Int in
            guard let number = Int(text) else { throw InspectorError(status: .badRequest, message: "after must be a number, not \(text)") }
            return number
        }
        // A number from another feed (a server run before this one) means nothing here.
        let fromThisFeed = parameters.get("feed").map { $0.isEmpty || $0 == feed.name } ?? true
        let (items, newest) = try await feed.items(after: fromThisFeed ? after : nil)
        return ChangesJSON(changes: items, newest: newest, feed: feed.name)
    }

    /// `body`'s value as JSON, or its error as a JSON message with a status that says whose it is.
    func respond(_ body: () async throws -> some Encodable) async throws -> Response {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return Self.response(String(decoding: try encoder.encode(try await body()), as: UTF8.self), type: "application/json")
        } catch {
            return Self.failure(error)
        }
    }

    private static func required(_ name: String, in parameters: Parameters) throws(InspectorError) -> String {
        guard let value = parameters.get(name), !value.isEmpty else {
            throw InspectorError(status: .badRequest, message: "the request has no \(name) parameter")
        }
        return value
    }

    static func failure(_ error: any Error) -> Response {
        let status: HTTPResponse.Status
        let message: String
        switch error {
        case let error as InspectorError: (status, message) = (error.status, error.message)
        case let error as StoreError: (status, message) = (.serviceUnavailable, "the store failed: \(error)")
        default: (status, message) = (.internalServerError, "\(error)")
        }
        let body = (try? JSONEncoder().encode(["error": message])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        var response = response(body, type: "application/json")
        response.status = status
        return response
    }

    private static func response(_ text: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}

/// A request the inspector does not answer, with the status and message it answers with.
struct InspectorError: Error {
    var status: HTTPResponse.Status
    var message: String
}
