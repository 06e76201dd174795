@testable import ActorFSM
import Testing
import TestSupport

/// The inbox's state machine, driven synchronously: admission, ownership, batches, withdrawal.
@Suite struct InboxTests {
    typealias TestInbox = Inbox<NumberedTurnstile>

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
        guard case .full = inbox.followUp(entry(.reset)) else { Issue.record("a full inbox took a follow-up"); return }
        _ = takeBatch(&inbox)
        guard case .queued = inbox.followUp(entry(.reset)) else { Issue.record("a finishing machine takes follow-ups"); return }
        _ = inbox.close(stopping: true)
        _ = takeBatch(&inbox)
        guard case .closed = inbox.followUp(entry(.reset)) else { Issue.record("a stopped machine takes nothing"); return }
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
        #expect(!inbox.isProcessing)
        let ownsAgain = inbox.beginInline()
        #expect(ownsAgain)
        let keepsOwnershipWhenEmpty = inbox.endInline(stopped: false)
        #expect(!keepsOwnershipWhenEmpty)
    }

    @Test func waitersAreLetInInOrderOnceHalfTheInboxIsFree() {
        var inbox = TestInbox(capacity: 4)
        for event in [Event.coin, .pass, .coin, .pass] { _ = inbox.post(entry(event)) }
        for event in [Event.reset, .coin] {
            guard case .accepted = inbox.park(.init(entry: entry(event), admitted: nil)) else {
                Issue.record("an open inbox refused a sender")
                return
            }
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
            _ = inbox.park(.init(entry: entry(.pass, ticket: 2, reply: reply), admitted: nil))
            _ = inbox.post(entry(.reset, ticket: 3))
            _ = inbox.park(.init(entry: entry(.coin, ticket: 4, reply: reply), admitted: nil))
            guard case .none = inbox.withdraw(1) else { Issue.record("a posted event stays once queued"); return }
            guard case .withdrawn(let waiter, _, let idle) = inbox.withdraw(4) else { Issue.record("not withdrawn"); return }
            #expect(waiter.entry.event == .coin)
            #expect(!idle, "the drain still owns the other events")
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
            _ = inbox.park(.init(entry: entry(.pass, ticket: 2, reply: reply), admitted: nil))
            let closing = inbox.close(stopping: true)
            #expect(closing.queuedSenders.count == 1 && closing.queuedSenders.first === reply)
            #expect(events(inbox.takeAll()) == [.coin, .pass])
            // Answered once: the later answer, when the event's `.stopped` record is made, is ignored.
            reply.resume(returning: .refused)
            reply.resume(returning: .withdrawn)
        }
    }

    @Test func closingRefusesWaitersAndKeepsTheQueueForAFinish() {
        var inbox = TestInbox(capacity: 1)
        _ = inbox.post(entry(.coin))
        _ = inbox.park(.init(entry: entry(.pass), admitted: nil))
        let closing = inbox.close(stopping: false)
        #expect(closing.waiters.map { $0.entry.event } == [.pass])
        #expect(closing.queuedSenders.isEmpty, "finishing processes the queued events")
        #expect(!closing.isIdle, "an event is queued")
        guard case .refused = inbox.park(.init(entry: entry(.reset), admitted: nil)) else {
            Issue.record("a finishing inbox took a sender")
            return
        }
        #expect(takeBatch(&inbox).map(events) == [.coin])
    }

    @Test func closingAnIdleInboxStopsItEvenForAFinish() {
        var inbox = TestInbox(capacity: 4)
        let closing = inbox.close(stopping: false)
        #expect(closing.isIdle && closing.waiters.isEmpty && closing.queuedSenders.isEmpty)
        guard case .closed = inbox.followUp(entry(.reset)) else {
            Issue.record("the machine ends at once, so nothing more is taken")
            return
        }
        guard case .closed = inbox.post(entry(.coin)) else { Issue.record("a post was taken"); return }
    }

    @Test func aWithdrawalSaysWhetherProcessingIsOwned() async {
        _ = await withCheckedContinuation { (continuation: CheckedContinuation<TestInbox.Entry.Reply, Never>) in
            let reply = TestInbox.Entry.ReplySlot(continuation)
            var inbox = TestInbox(capacity: 1)
            _ = inbox.post(entry(.coin))
            _ = inbox.park(.init(entry: entry(.pass, ticket: 7, reply: reply), admitted: nil))
            guard case .withdrawn(let waiter, let resumptions, let idle) = inbox.withdraw(7) else {
                Issue.record("a waiting sender is withdrawn")
                return
            }
            #expect(waiter.entry.event == .pass && resumptions.isEmpty && !idle, "the drain owns the queue")
            guard case .none = inbox.withdraw(7) else { Issue.record("withdrawn twice"); return }
            // A stopped machine's drain lets go of a queue that still holds a send's event.
            _ = takeBatch(&inbox)
            _ = inbox.park(.init(entry: entry(.pass, ticket: 8, reply: reply), admitted: nil))
            _ = inbox.close(stopping: true)
            inbox.release()
            guard case .withdrawn(_, _, let idleAfterRelease) = inbox.withdraw(8) else {
                Issue.record("a queued send is withdrawn")
                return
            }
            #expect(idleAfterRelease, "nothing owns processing: the machine must settle")
            reply.resume(returning: .withdrawn)
        }
    }

    @Test func onlyAnInboxWithNothingQueuedOrOwnedClosesAsIdle() {
        var idle = TestInbox(capacity: 4)
        let closesIdle = idle.closeIfIdle()
        #expect(closesIdle)
        guard case .closed = idle.followUp(entry(.coin)) else { Issue.record("an idle inbox stopped"); return }
        var busy = TestInbox(capacity: 4)
        _ = busy.post(entry(.coin))
        let closesBusy = busy.closeIfIdle()
        #expect(!closesBusy, "the drain owns a queued event")
        // A stopped machine's drain lets go of a queue still holding events: not idle either.
        _ = busy.close(stopping: true)
        busy.release()
        let closesReleased = busy.closeIfIdle()
        #expect(!closesReleased, "its events still wait for their stopped records")
        #expect(events(busy.takeAll()) == [.coin])
    }
}
