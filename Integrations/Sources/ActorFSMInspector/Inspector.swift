import ActorFSMDurability
import Hummingbird
import NIOCore

/// The web inspector of a store: a page that draws each schema with live counts per state,
/// lists machines by state, status and age, shows a machine's timeline, and follows new
/// transitions as they are written.
///
/// It reads through ``StoreInspection`` only, so it runs beside the process that writes: give
/// it a `SQLiteReader` or a `PostgresReader`. It changes nothing unless given
/// ``InspectorActions``, which let its page pause, resume, cancel and retry machines for whoever
/// presents their token. The page needs no network beyond its server: its script, styles and
/// diagrams come from it.
///
/// ```swift
/// let inspector = Inspector(store: try SQLiteReader(path: "orders.sqlite"), title: "Orders")
/// try await inspector.application(port: 8080).runService()
/// ```
///
/// Or add its routes to an application of your own, under a path of its own:
///
/// ```swift
/// let router = Router()
/// inspector.addRoutes(to: router.group("ops/inspector"))
/// let application = Application(router: router, configuration: ApplicationConfiguration(address: .hostname("0.0.0.0", port: 8080)))
/// ```
public struct Inspector: Sendable {
    /// The store shown.
    public let store: any StoreInspection
    /// The page's title.
    public let title: String
    /// What the page may change, and the token that lets it; `nil`: nothing, the inspector reads.
    public let actions: InspectorActions?
    private let feed: ChangeFeed
    private let overviews: OverviewCache

    /// An inspector of `store`, its page titled `title`, that changes nothing unless given
    /// `actions`.
    public init(store: any StoreInspection, title: String = "ActorFSM", actions: InspectorActions? = nil) {
        self.store = store
        self.title = title
        self.actions = actions
        feed = ChangeFeed(store: store)
        overviews = OverviewCache(store: store)
    }

    /// Adds the page (at the group's root) and its JSON and SVG endpoints (under `api/`) to `group`;
    /// with ``actions``, `POST api/act` too, which checks each request's token and origin itself.
    public func addRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        let api = InspectorAPI(store: store, title: title, feed: feed, overviews: overviews, acts: actions != nil)
        group.get { _, _ in Self.page() }
        group.get("api/overview") { _, _ in try await api.respond { try await api.overview() } }
        group.get("api/diagram.svg") { request, _ in try await api.diagram(request.uri.queryParameters) }
        group.get("api/machines") { request, _ in try await api.respond { try await api.machines(request.uri.queryParameters) } }
        group.get("api/machine") { request, _ in try await api.respond { try await api.timeline(request.uri.queryParameters) } }
        group.get("api/changes") { request, _ in try await api.respond { try await api.changes(request.uri.queryParameters) } }
        if let actions {
            let endpoint = ActionEndpoint(actions: actions, store: store)
            group.post("api/act") { request, _ in try await endpoint.respond(to: request, api: api) }
        }
    }

    /// Adds the page and its endpoints to `router`, at its root.
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        addRoutes(to: router.group())
    }

    /// An application serving the inspector alone on `host` and `port` (0: a free port).
    ///
    /// Bound to the loopback address, it answers only requests whose `Host` names it
    /// (`localhost`, `127.0.0.1`, `[::1]`) and refuses others with 403 Forbidden, so
    /// that a page of another site cannot read it through a DNS rebinding.
    ///
    /// - Parameters:
    ///   - host: the address to listen on; the loopback address by default, so that only this
    ///     machine reaches the store's data.
    ///   - port: the port to listen on.
    ///   - allowedHosts: the names a request's `Host` may give (its port aside); `nil`: the
    ///     loopback's names when `host` is a loopback address, any name otherwise.
    ///   - onStarted: called with the port listened on once the server runs.
    public func application(
        host: String = "127.0.0.1", port: Int = 8080, allowedHosts: Set<String>? = nil,
        onStarted: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router()
        let loopback = HostCheck<BasicRequestContext>.loopbackNames
        let isLoopback = loopback.contains(HostCheck<BasicRequestContext>.name(of: host)) || host.hasPrefix("127.")
            || host == "::1"
        if let allowed = allowedHosts ?? (isLoopback ? loopback : nil) {
            router.add(middleware: HostCheck(allowed: Set(allowed.map { $0.lowercased() })))
        }
        addRoutes(to: router)
        return Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "actorfsm-inspector"),
            onServerRunning: { channel in await onStarted(channel.localAddress?.port ?? port) })
    }

    private static func page() -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: InspectorPage.html)))
    }
}
