import ActorFSM
import ActorFSMDurability
import ActorFSMInspector
import ActorFSMSQLite
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Testing

/// Orders of a small shop: what the inspector's tests show.
enum Shop: MachineDefinition {
    enum State: String, Hashable, Sendable, Codable, CustomStringConvertible {
        case placed, paymentPending, paid, shipped, cancelled, expired

        // A name with a space, as the example's have: the page must send it as it is.
        var description: String { self == .paymentPending ? "payment pending" : rawValue }
    }
    enum Event: String, Hashable, Sendable, Codable { case submit, pay, ship, cancel, jam }
    typealias ID = String
    struct Data: Codable, Sendable, Equatable {
        var total = 0
        var note = ""
    }
}

func shopSchema() throws -> Schema<Shop> {
    try Schema<Shop>(initial: .placed, final: [.shipped, .cancelled, .expired]) {
        define(.placed) {
            when(.submit) | then(.paymentPending) | { context in context.data.total = 42 }
            when(.cancel) | then(.cancelled)
        }
        define(.paymentPending) {
            when(.pay) | then(.paid)
            when(.cancel) | then(.cancelled)
            when(.jam) | then(.paymentPending) | { _ in throw Jammed() }
            after(.seconds(3600)) | then(.expired)
        }
        define(.paid) { when(.ship) | then(.shipped) | { context in context.data.note = "<b>fragile</b>" } }
    }
}

/// Shop orders in a store, written by a durable supervisor that stays open:
/// o-1 placed; o-2 and o-3 waiting for payment; o-4 shipped; o-5 failed; o-6 and
/// ``ShopStore/giftID`` cancelled.
final class ShopStore: Sendable {
    /// An id with what URLs and markup give a meaning to.
    static let giftID = "gift #7/ü <b>&"
    let orders: Supervisor<Shop>
    /// The SQLite file, for a SQLite store.
    let path: String
    private let closing: @Sendable () -> Void
    private let closingStore: @Sendable () -> Void

    /// The orders in a new SQLite file, whose supervisor takes operators' requests every
    /// `requestInterval` (a second by default).
    convenience init(requestInterval: Duration = .seconds(1)) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inspector-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("shop.sqlite").path
        // The inspector reads beside the writer: with no delay, it sees each summary at its commit.
        let store = try SQLiteStore(path: path, summaryDelay: .zero)
        try await self.init(store: store, path: path, requestInterval: requestInterval, closingStore: store.close) {
            store.close()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// The orders in `store`, which `closing` closes (and `closingStore` alone, keeping its files).
    init(
        store: any MachineStore, path: String = "", requestInterval: Duration = .seconds(1),
        closingStore: @escaping @Sendable () -> Void = {},
        closing: @escaping @Sendable () -> Void
    ) async throws {
        self.path = path
        self.closing = closing
        self.closingStore = closingStore
        var durability = Durability<Shop>(store: store)
        durability.operatorRequestInterval = requestInterval
        orders = try Supervisor(schema: try shopSchema(), durability: durability,
                                configuration: SupervisorConfiguration(machine: MachineConfiguration(failurePolicy: .resume)))
        for id in ["o-1", "o-2", "o-3", "o-4", "o-5", "o-6", Self.giftID] { try await orders.activate(id: id, data: Shop.Data()) }
        for id in ["o-2", "o-3", "o-4", "o-5"] { try await orders.send(to: id, .submit) }
        try await orders.send(to: "o-4", .pay)
        try await orders.send(to: "o-4", .ship)
        _ = try? await orders.send(to: "o-5", .jam)
        try await orders.send(to: "o-6", .cancel)
        try await orders.send(to: Self.giftID, .cancel)
    }

    func close() async {
        await orders.shutdown()
        closing()
    }

    /// Shuts the orders down and closes the store, keeping its file: no process runs its
    /// machines any more, and another may open it as a writer.
    func stopWriting() async {
        await orders.shutdown()
        closingStore()
    }
}

/// Runs `work`, which blocks for a second or so (it starts or stops a server), on a thread of
/// its own rather than on one of the few threads every test's tasks share.
func offThePool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// An inspector served on a free port of the loopback address until `stop()`.
final class RunningInspector: Sendable {
    let port: Int
    private let group: ServiceGroup
    private let server: Task<Void, any Error>

    convenience init(_ inspector: Inspector) async throws {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        try await self.init(inspector.application(port: 0) { port in continuation.yield(port) }, ports: ports)
    }

    /// Runs `application`, which yields the port it listens on to `ports`.
    init(_ application: some ApplicationProtocol, ports: AsyncStream<Int>) async throws {
        let group = ServiceGroup(services: [application], logger: Logger(label: "inspector-tests"))
        self.group = group
        let (started, starting) = AsyncStream<Int>.makeStream()
        // The port, or the end of the stream if the server ends first (it could not listen).
        Task {
            for await port in ports {
                starting.yield(port)
                break
            }
        }
        server = Task {
            defer { starting.finish() }
            try await group.run()
        }
        var iterator = started.makeAsyncIterator()
        port = try #require(await iterator.next())
    }

    var base: String { "http://127.0.0.1:\(port)/" }

    /// The status and body of a GET of `path`, with `host` as the `Host` header if given.
    func get(_ path: String, host: String? = nil) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: try #require(URL(string: base + path)))
        if let host { request.setValue(host, forHTTPHeaderField: "Host") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        return (status, String(decoding: data, as: UTF8.self))
    }

    /// The status and body of a POST of `body` to `path`, with `headers`.
    func post(_ path: String, body: String, headers: [String: String]) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: try #require(URL(string: base + path)))
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// The JSON object a GET of `path` answers.
    func json(_ path: String) async throws -> [String: Any] {
        let (_, body) = try await get(path)
        let object = try JSONSerialization.jsonObject(with: Data(body.utf8))
        return try #require(object as? [String: Any])
    }

    func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await server.value
    }
}

extension RunningInspector {
    /// `inspector` served under `path` by an application of the test's own, as a user mounts it.
    static func mounted(_ inspector: Inspector, at path: String) async throws -> RunningInspector {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let router = Router()
        router.get("health") { _, _ in "ok" }
        inspector.addRoutes(to: router.group(RouterPath(path)))
        let application = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) })
        return try await RunningInspector(application, ports: ports)
    }

    /// `inspector` served at the root beside `drive`, a page of the test's own from the same
    /// origin, which can script the inspector's page in a frame as a user would use it.
    static func driven(_ inspector: Inspector, by drive: String) async throws -> RunningInspector {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let router = Router()
        inspector.addRoutes(to: router)
        router.get("drive") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/html; charset=utf-8"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: drive)))
        }
        let application = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) })
        return try await RunningInspector(application, ports: ports)
    }
}
