import ActorFSM
import ActorFSMDurability

/// What became of a forwarded event that an ``AnsweringHost`` delivered.
package enum ForwardedDelivery: Sendable {
    /// The entry that records the event carried its reply (`JournalWrite.reply`): the store
    /// answered the sender in that entry's commit.
    case answered
    /// The reply to send: the event was refused, or recorded by no entry.
    case reply([UInt8])
    /// Not processed here: the event stays queued for the process that can process it.
    case leftQueued
}

/// A ``ForwardingHost`` whose machines write each forwarded event's reply in the entry that
/// records the event, for a store that answers senders in its journal's commits: one statement
/// fewer for each forwarded event.
package protocol AnsweringHost: ForwardingHost {
    /// Processes `event`, forwarded by another process; see ``ForwardedDelivery``.
    func deliverAnswering(_ event: ForwardedEvent) async -> ForwardedDelivery
}
