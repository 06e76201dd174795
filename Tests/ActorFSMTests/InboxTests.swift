@testable import ActorFSM
import Testing

/// The inbox's state machine, driven synchronously: admission, ownership, batches, withdrawal.
@Suite struct InboxTests {
    typealias TestInbox = Inbox<State, Event, Int>

    func entry(_ event: Event, ticket: UInt64 = 0, reply: TestInbox.Entry.ReplySlot? = nil) -> TestInbox.Entry {
        TestInbox.Entry(event: event, predicates: nil, origin: .post, acceptedAt: .now, ticket: ticket, reply: reply)
    }

    func events(_ batch: [TestInbox.Entry]) -> [Event?] { batch.map(\.event) }

    /// Takes the next batch, or `nil` if the queue was empty.
    func takeBatch(_ inbox: inout TestInbox) -> [TestInbox.Entry]? {
        var batch = RingBuffer<TestInbox.Entry>()
        var resumptions = TestInbox.Resumptions()
        return inbox.takeBatch(into: &batch, resumptions: &resumptions) ? batch.removeAll() : nil
    }

    @Test func postsAreRefusedWhenFullAndOnceClosed() {
        var inbox = TestInbox(capacity: 2)
        guard case .queued(let first) = inbox.post(entry(.coin)) else { Issue.record("refused"); return }
        #expect(first.startProcessing, "the first event of an idle inbox starts the drain")
        guard case .queued(let second) = inbox.post(entry(.pass)) else { Issue.record("refused"); return }
        #expect(!second.startProcessing, "the drain already owns the queue")
        guard case .full = inbox.post(entry(.reset)) else { Issue.record("a full inbox took a post"); return }
        _ = inbox.close(stopping: false)
        guard case .closed = inbox.post(entry(.reset)) else { Issue.record("a closed inbox took a post"); return }
        let fullRefusesFollowUp = inbox.followUp(entry(.reset))
        #expect(fullRefusesFollowUp == nil, "still full")
        _ = takeBatch(&inbox)
        let finishingTakesFollowUp = inbox.followUp(entry(.reset))
        #expect(finishingTakesFollowUp != nil, "a finishing machine takes follow-ups")
        _ = inbox.close(stopping: true)
        _ = takeBatch(&inbox)
        let stoppedRefusesFollowUp = inbox.followUp(entry(.reset))
        #expect(stoppedRefusesFollowUp == nil, "a stopped machine takes nothing")
    }

    @Test func ownershipPassesFromAnInlineSendToTheDrainAndBack() {
        var inbox = TestInbox(capacity: 8)
        let firstOwner = inbox.beginInline()
        #expect(firstOwner)
        let secondOwner = inbox.beginInline()
        #expect(!secondOwner, "only one owner at a time")
        guard case .queued(let resumptions) = inbox.post(entry(.pass)) else { Issue.record("refused"); return }
        #expect(!resumptions.startProcessing, "the inline send will hand over to the drain")
        let keepsOwnership = inbox.endInline(stopped: false)
        #expect(keepsOwnership, "an event arrived meanwhile: keep ownership for the drain")
        #expect(takeBatch(&inbox).map(events) == [.pass])
        #expect(takeBatch(&inbox) == nil)
        #expect(!inbox.isActive)
        let ownsAgain = inbox.beginInline()
        #expect(ownsAgain)
        let keepsOwnershipWhenEmpty = inbox.endInline(stopped: false)
        #expect(!keepsOwnershipWhenEmpty)
    }

    @Test func waitersAreLetInInOrderOnceHalfTheInboxIsFree() {
        var inbox = TestInbox(capacity: 4)
        for event in [Event.coin, .pass, .coin, .pass] { _ = inbox.post(entry(event)) }
        for event in [Event.reset, .coin] {
            let parked = inbox.admitOrPark(.init(entry: entry(event), admitted: nil))
            #expect(parked != nil)
        }
        #expect(inbox.waiters.count == 2)
        guard case .full = inbox.post(entry(.pass)) else { Issue.record("a post overtook the waiters"); return }
        _ = takeBatch(&inbox)
        #expect(inbox.waiters.count == 2, "one free slot is less than half the inbox")
        _ = takeBatch(&inbox)
        #expect(inbox.waiters.isEmpty)
        #expect(inbox.queue.removeAll().map(\.event) == [.coin, .pass, .reset, .coin])
    }

    @Test func batchedEventsCountAgainstTheCapacityUntilTheDrainReturns() {
        var inbox = TestInbox(capacity: 64)
        for _ in 0..<64 { _ = inbox.post(entry(.coin)) }
        let batch = takeBatch(&inbox)
        #expect(batch?.count == 8)
        #expect(inbox.queue.count == 56)
        guard case .queued = inbox.post(entry(.pass)) else { Issue.record("the started event's slot is free"); return }
        guard case .full = inbox.post(entry(.pass)) else { Issue.record("seven batched events still count"); return }
        _ = takeBatch(&inbox)
        guard case .queued = inbox.post(entry(.pass)) else { Issue.record("the first batch is done"); return }
    }

    @Test func anAwaitedSendIsTakenAloneAndOnlySendsAreWithdrawn() async {
        _ = await withCheckedContinuation { (continuation: CheckedContinuation<TestInbox.Entry.Reply, Never>) in
            let reply = TestInbox.Entry.ReplySlot(continuation)
            var inbox = TestInbox(capacity: 1_024)
            _ = inbox.post(entry(.coin, ticket: 1))
            _ = inbox.admitOrPark(.init(entry: entry(.pass, ticket: 2, reply: reply), admitted: nil))
            _ = inbox.post(entry(.reset, ticket: 3))
            _ = inbox.admitOrPark(.init(entry: entry(.coin, ticket: 4, reply: reply), admitted: nil))
            var resumptions = TestInbox.Resumptions()
            let withdrawnPost = inbox.withdraw(1, into: &resumptions)
            #expect(withdrawnPost == nil, "a posted event stays once queued")
            let withdrawnSend = inbox.withdraw(4, into: &resumptions)?.entry.event
            #expect(withdrawnSend == .coin)
            #expect(takeBatch(&inbox).map(events) == [.coin])
            #expect(takeBatch(&inbox).map(events) == [.pass])
            #expect(takeBatch(&inbox).map(events) == [.reset])
            reply.resume(returning: .withdrawn)
        }
    }

    @Test func stoppingHandsBackTheSendersOfQueuedEventsAndKeepsTheEvents() async {
        _ = await withCheckedContinuation { (continuation: CheckedContinuation<TestInbox.Entry.Reply, Never>) in
            let reply = TestInbox.Entry.ReplySlot(continuation)
            var inbox = TestInbox(capacity: 8)
            _ = inbox.post(entry(.coin))
            _ = inbox.admitOrPark(.init(entry: entry(.pass, ticket: 2, reply: reply), admitted: nil))
            let closing = inbox.close(stopping: true)
            #expect(closing.queuedSenders.count == 1 && closing.queuedSenders.first === reply)
            #expect(events(inbox.takeAll()) == [.coin, .pass])
            // Answered once: the later answer, when the event's `.stopped` record is made, is ignored.
            reply.resume(returning: .refused)
            reply.resume(returning: .withdrawn)
        }
    }

    @Test func closingRefusesWaitersAndCancelsDelayedPosts() {
        var inbox = TestInbox(capacity: 1)
        _ = inbox.post(entry(.coin))
        _ = inbox.admitOrPark(.init(entry: entry(.pass), admitted: nil))
        let delayed = ScheduledEvent()
        let accepted = inbox.schedule(delayed)
        #expect(accepted)
        let closing = inbox.close(stopping: false)
        #expect(closing.waiters.map { $0.entry.event } == [.pass])
        #expect(closing.scheduled.count == 1)
        #expect(closing.queuedSenders.isEmpty, "finishing processes the queued events")
        let scheduledWhileFinishing = inbox.schedule(ScheduledEvent())
        #expect(!scheduledWhileFinishing, "a finishing machine schedules nothing new")
        let parkedWhileFinishing = inbox.admitOrPark(.init(entry: entry(.reset), admitted: nil))
        #expect(parkedWhileFinishing == nil)
    }
}
