@testable import ActorFSM
import Testing
import TestSupport

/// The registry of delayed posts, driven synchronously.
@Suite struct DelayedPostsTests {
    @Test func closingHandsBackThePendingPostsAndRefusesNewOnes() {
        var posts = DelayedPosts()
        let (first, second, delivered) = (ScheduledEvent(), ScheduledEvent(), ScheduledEvent())
        let accepted = [posts.add(first), posts.add(second), posts.add(delivered)]
        #expect(accepted == [true, true, true])
        posts.remove(delivered)
        let pending = posts.close()
        #expect(Set(pending.map(ObjectIdentifier.init)) == [ObjectIdentifier(first), ObjectIdentifier(second)])
        let late = posts.add(ScheduledEvent())
        #expect(!late, "no delayed post is taken once the machine stops taking events")
        #expect(posts.close().isEmpty, "each post is handed back once")
    }
}
