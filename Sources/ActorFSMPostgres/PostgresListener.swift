import ActorFSM
import ActorFSMDistribution
import ActorFSMDurability

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Listens for the notifications sent to one channel, on a connection and a thread of its own:
/// the thread sleeps in `poll` until the server sends something or ``close()`` wakes it.
final class PostgresListener: Sendable {
    /// The pipe ``close()`` writes to, to wake the thread.
    private let wake: (read: Int32, write: Int32)
    private let thread: Locked<pthread_t?>

    /// Connects to `url`, listens on `channel`, and calls `receive` with each batch of payloads
    /// from the listening thread. After a lost connection it reconnects once a second, and calls
    /// `reconnected` (notifications sent meanwhile are lost: the caller looks for what they
    /// announced).
    init(
        url: String, channel: String, receive: @escaping @Sendable ([String]) -> Void,
        reconnected: @escaping @Sendable () -> Void
    ) throws(StoreError) {
        let connection = Confined(try PostgresConnection(url: url))
        try connection.value.execute("LISTEN \(channel)")
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw StoreError("could not make a pipe to wake the listener: error \(errno)") }
        let wake = (read: ends[0], write: ends[1])
        self.wake = wake
        thread = Locked(startThread(name: "postgres listener") {
            Self.listen(connection.value, channel: channel, wake: wake.read, receive: receive, reconnected: reconnected)
            connection.value.close()
        })
    }

    deinit { close() }

    /// Wakes the thread, lets it end, and disconnects.
    func close() {
        guard let running = thread.withLock({ thread -> pthread_t? in defer { thread = nil }; return thread }) else { return }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        pthread_join(running, nil)
        closeDescriptor(wake.read)
        closeDescriptor(wake.write)
    }

    private static func listen(
        _ connection: PostgresConnection, channel: String, wake: Int32,
        receive: @Sendable ([String]) -> Void, reconnected: @Sendable () -> Void
    ) {
        var lost = false
        while true {
            let socket = lost ? -1 : connection.socket
            var descriptors = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: socket, events: Int16(POLLIN), revents: 0)]
            // Without a connection, wait a second (or for close) before connecting again.
            let ready = poll(&descriptors, socket < 0 ? 1 : 2, socket < 0 ? 1_000 : -1)
            if ready < 0 && errno == EINTR { continue }
            if descriptors[0].revents != 0 { return }
            do throws(StoreError) {
                if socket < 0 {
                    if lost { connection.reset() }
                    try connection.execute("LISTEN \(channel)")
                    lost = false
                    reconnected()
                } else {
                    let payloads = try connection.notifications()
                    if !payloads.isEmpty { receive(payloads) }
                }
            } catch {
                lost = true
            }
        }
    }
}

/// Closes a file descriptor (a method named `close` hides the C function).
private func closeDescriptor(_ descriptor: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(descriptor)
    #else
    _ = Darwin.close(descriptor)
    #endif
}
