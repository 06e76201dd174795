import Hummingbird

/// Refuses a request whose `Host` names no address of `allowed` (the port aside), with 403:
/// a page of another site that a DNS rebinding points at the loopback address cannot read
/// the inspector through the browser of someone on this machine.
struct HostCheck<Context: RequestContext>: RouterMiddleware {
    /// The host names taken, lowercased, without port (`[::1]` keeps its brackets).
    let allowed: Set<String>

    /// The names of the loopback address, which a server bound to it answers to.
    static var loopbackNames: Set<String> { ["localhost", "127.0.0.1", "[::1]"] }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let authority = request.head.authority, allowed.contains(Self.name(of: authority)) else {
            return Response(status: .forbidden)
        }
        return try await next(request, context)
    }

    /// `authority` without its port, lowercased.
    static func name(of authority: String) -> String {
        let lowered = authority.lowercased()
        if lowered.hasPrefix("["), let end = lowered.firstIndex(of: "]") { return String(lowered[...end]) }
        return String(lowered.prefix { $0 != ":" })
    }
}
