import ActorFSM
import ActorFSMDurability

/// A `MachineStore` that several processes share and that carries events between them.
///
/// A durable supervisor over such a store sends an event for a machine another live process
/// holds to that process, through the store, and returns the record that process sends back:
/// `send(to:_:)` and `post(to:_:)` work from any process. `ActorFSMPostgres`'s `PostgresStore`
/// is one, with a durable inbox table and `LISTEN`/`NOTIFY`.
///
/// **What a store promises.** ``forward(_:)`` returns only once the event is durable in the
/// store, so that it is processed even if its holder dies first: the process that takes the
/// machine over processes it. It hands each event it carries to the ``ForwardingHost`` of the
/// process holding the machine, and marks it recorded in the same commit as the journal write
/// that records it (the journal names the event's number in its write), so that no process delivers it again:
/// an event is processed once, whichever process processes it.
public protocol ForwardingStore: MachineStore {
    /// Queues `event` for the process holding `event.machine`, durably, and waits for that
    /// process's reply, if `event.wantsReply`.
    ///
    /// - Returns: the reply the holder's ``ForwardingHost/deliver(_:)`` returned; empty for an
    ///   event that wants none.
    /// - Throws: `StoreError` if the event could not be queued, or no reply came in time.
    func forward(_ event: ForwardedEvent) async throws(StoreError) -> [UInt8]

    /// Hands this process's share of the work to `host` from now on: events forwarded to the
    /// machines this process holds, and machines it takes over from processes that died.
    func serve(_ host: any ForwardingHost)
}

/// What processes the events a ``ForwardingStore`` carries to this process: a durable
/// supervisor registers one when it is made over such a store.
public protocol ForwardingHost: AnyObject, Sendable {
    /// Processes `event`, forwarded by another process, and returns the reply to carry back
    /// (UTF-8 text); `nil` if this process does not hold the machine after all (the event
    /// then stays queued for the process that does).
    func deliver(_ event: ForwardedEvent) async -> [UInt8]?

    /// Restores `machines`, whose leases this process took over from a process that died, so
    /// that their timers fire and their queued events are processed.
    func adopt(_ machines: [String]) async

    /// Whether the host still processes events; a store takes no machine over for a host that
    /// does not (a supervisor that shut down), and delivers it nothing.
    var isServing: Bool { get }
}

/// An event on its way to the process that holds its machine.
public struct ForwardedEvent: Sendable {
    /// The machine's id, as the store knows it.
    public let machine: String
    /// The event and its predicates, as the sending supervisor encoded them.
    public let payload: [UInt8]
    /// Whether the sender waits for the record (`send`) or not (`post`).
    public let wantsReply: Bool
    /// The store's number for the event, once queued; 0 before.
    public let number: Int64

    /// An event for `machine`, numbered `number` by the store (0 before it is queued).
    public init(machine: String, payload: [UInt8], wantsReply: Bool, number: Int64 = 0) {
        self.machine = machine
        self.payload = payload
        self.wantsReply = wantsReply
        self.number = number
    }
}
