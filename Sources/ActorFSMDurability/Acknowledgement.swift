import ActorFSM

/// When a durable machine's `send` returns, relative to the store's write of its transition.
public struct Acknowledgement: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline enum Code: Sendable, Hashable {
        case durable
        case window(Int)
    }

    @usableFromInline let code: Code

    /// `send` returns once the transition is durable in the store. Writes of many machines
    /// (and of one machine's successive events) share one commit, so throughput grows with the
    /// number of transitions in flight.
    public static let durable = Self(code: .durable)

    /// `send` returns once the transition has completed in memory; the write follows. At most
    /// `window` transitions of the machine wait to be written: the machine processes no further
    /// event until the store catches up. A crash loses at most the last `window` transitions
    /// of each machine, and their senders had their answers.
    public static func fireAndForget(window: Int) -> Self { Self(code: .window(max(1, window))) }

    /// `durable`, or `fire-and-forget (window N)`.
    public var description: String {
        switch code {
        case .durable: "durable"
        case .window(let window): "fire-and-forget (window \(window))"
        }
    }
}
