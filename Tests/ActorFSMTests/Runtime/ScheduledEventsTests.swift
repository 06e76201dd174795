@testable import ActorFSM
import Testing
import TestSupport

/// The registry of scheduled events, driven synchronously.
@Suite struct ScheduledEventsTests {
    @Test func closingHandsBackThePendingPostsAndRefusesNewOnes() {
        var posts = ScheduledEvents()
        let (first, second, delivered) = (ScheduledEvent(), ScheduledEvent(), ScheduledEvent())
        let accepted = [posts.add(first), posts.add(second), posts.add(delivered)]
        #expect(accepted == [true, true, true])
        posts.remove(delivered)
        let pending = posts.close()
        #expect(Set(pending.map(ObjectIdentifier.init)) == [ObjectIdentifier(first), ObjectIdentifier(second)])
        let late = posts.add(ScheduledEvent())
        #expect(!late, "no scheduled event is taken once the machine stops taking events")
        #expect(posts.close().isEmpty, "each post is handed back once")
    }
}
