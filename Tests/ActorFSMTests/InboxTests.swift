@testable import ActorFSM
import Testing

/// The inbox, driven directly: admission, ownership, waiters, withdrawal, the segmented queue,
/// and producers on many threads against one reader.
@Suite(.timeLimit(.minutes(1))) struct InboxTests {
    typealias TestInbox = Inbox<State, Event, Int>
    typealias Entry = TestInbox.Entry

    /// An inbox's two sides, as a machine holds them.
    final class Harness: Sendable {
        let inbox: FencedMutex<TestInbox>
        let signals = InboxSignals()

        init(capacity: Int) {
            inbox = FencedMutex(TestInbox(capacity: capacity))
        }

        func post(_ entry: Entry) -> TestInbox.PostResult { inbox.withLock { $0.post(entry, signals) } }

        func park(_ entry: Entry, admitted: CheckedContinuation<Bool, Never>? = nil) -> TestInbox.Resumptions? {
            inbox.withLock { $0.admitOrPark(.init(entry: entry, admitted: admitted), signals) }
        }

        func followUp(_ entry: Entry) -> TestInbox.Resumptions? { inbox.withLock { $0.followUp(entry, signals) } }

        /// What the drain does to take an event, handing the resumptions of the senders its
        /// progress lets in to `perform`.
        func take(
            _ reader: inout InboxReader<Entry>, perform: (TestInbox.Resumptions) -> Void = { _ in }
        ) -> Entry? {
            reader.next(signals, claimingHead: { inbox.withLock { $0.claimHead() } }, telling: { position in
                var resumptions = TestInbox.Resumptions()
                guard inbox.withLockIfAvailable({ $0.readerReached(position, signals, into: &resumptions) }) != nil else {
                    return false
                }
                perform(resumptions)
                return true
            })
        }

        /// Tells the producers a position, as the reader does at the end of a batch.
        func tell(_ position: Int) {
            var resumptions = TestInbox.Resumptions()
            inbox.withLock { $0.readerReached(position, signals, into: &resumptions) }
        }

        /// What the drain does when it finds the queue empty: gives up ownership unless waiting
        /// senders had to be let in first (whose resumptions it hands to `perform`).
        func release(
            _ reader: inout InboxReader<Entry>, perform: (TestInbox.Resumptions) -> Void = { _ in }
        ) -> Bool {
            var resumptions = TestInbox.Resumptions()
            let position = reader.position
            let released = inbox.withLock { $0.releaseIfEmpty(signals, readerAt: position, into: &resumptions) }
            perform(resumptions)
            reader.published = position
            if released { reader.head = nil }
            return released
        }

        /// What an inline send does when it is done: gives up ownership unless events arrived.
        func endInline(_ reader: InboxReader<Entry>) -> Bool {
            inbox.withLock { $0.endInline(signals, readerAt: reader.position, stopped: false) }
        }

        func close(stopping: Bool) -> (waiters: [TestInbox.Waiter], scheduled: [ScheduledEvent]) {
            inbox.withLock { $0.close(stopping: stopping) }
        }

        func withdraw(_ ticket: UInt64) -> TestInbox.Withdrawal? { inbox.withLock { $0.withdraw(ticket) } }

        var queued: Int { inbox.withLock { $0.queued(signals) } }
        var isOwned: Bool { signals.isOwned }
        func claim() -> Bool { signals.claim() }
        var waiterCount: Int { inbox.withLock { $0.waiters.count } }
        var hasMemory: Bool { inbox.withLock { $0.tail != nil } }
    }

    func entry(_ event: Event, ticket: UInt64 = 0, reply: Entry.ReplySlot? = nil) -> Entry {
        Entry(event: event, predicates: nil, origin: .post, acceptedAt: .now, ticket: ticket, reply: reply)
    }

    func takeAll(_ harness: Harness, _ reader: inout InboxReader<Entry>) -> [Entry] {
        var taken: [Entry] = []
        while let entry = harness.take(&reader) { taken.append(entry) }
        return taken
    }

    @Test func postsAreRefusedWhenFullAndOnceClosed() {
        let inbox = Harness(capacity: 2)
        var reader = InboxReader<Entry>()
        guard case .queued(let first) = inbox.post(entry(.coin)) else { Issue.record("refused"); return }
        #expect(first.startProcessing, "the first event of an idle inbox starts the drain")
        guard case .queued(let second) = inbox.post(entry(.pass)) else { Issue.record("refused"); return }
        #expect(!second.startProcessing, "the drain already owns the queue")
        guard case .full = inbox.post(entry(.reset)) else { Issue.record("a full inbox took a post"); return }
        _ = inbox.close(stopping: false)
        guard case .closed = inbox.post(entry(.reset)) else { Issue.record("a closed inbox took a post"); return }
        #expect(inbox.followUp(entry(.reset)) == nil, "still full")
        #expect(takeAll(inbox, &reader).map(\.event) == [.coin, .pass])
        #expect(inbox.followUp(entry(.reset)) != nil, "a finishing machine takes follow-ups")
        _ = inbox.close(stopping: true)
        #expect(inbox.followUp(entry(.pass)) == nil, "a stopped machine takes nothing")
        #expect(takeAll(inbox, &reader).map(\.event) == [.reset])
    }

    @Test func roomComesBackOnceTheReaderHasTakenTheEventsItKnewOf() {
        let inbox = Harness(capacity: 2)
        var reader = InboxReader<Entry>()
        for event in [Event.coin, .pass] {
            guard case .queued = inbox.post(entry(event)) else { Issue.record("refused"); return }
        }
        guard case .full = inbox.post(entry(.reset)) else { Issue.record("a full inbox took a post"); return }
        _ = inbox.take(&reader)
        #expect(inbox.queued == 2, "the reader tells its progress once per batch, not per event")
        _ = inbox.take(&reader)
        guard case .full = inbox.post(entry(.reset)) else { Issue.record("the batch is not done yet"); return }
        #expect(inbox.take(&reader) == nil)
        #expect(inbox.queued == 0)
        guard case .queued = inbox.post(entry(.reset)) else { Issue.record("the batch is done"); return }
    }

    @Test func aLongBatchGivesRoomBackOncePerSegment() {
        let segment = InboxSegment<Entry>.slotCount
        let inbox = Harness(capacity: 3 * segment)
        var reader = InboxReader<Entry>()
        for _ in 0..<(3 * segment) { _ = inbox.post(entry(.coin)) }
        for _ in 0..<(segment - 1) { _ = inbox.take(&reader) }
        #expect(inbox.queued == 3 * segment)
        _ = inbox.take(&reader)
        #expect(inbox.queued == 2 * segment, "a producer waiting for room gets it before the batch ends")
    }

    @Test func ownershipPassesFromAnInlineSendToTheDrainAndBack() {
        let inbox = Harness(capacity: 8)
        var reader = InboxReader<Entry>()
        #expect(inbox.claim(), "an inline send owns an idle inbox")
        #expect(!inbox.claim(), "only one owner at a time")
        guard case .queued(let resumptions) = inbox.post(entry(.pass)) else { Issue.record("refused"); return }
        #expect(!resumptions.startProcessing, "the inline send will hand over to the drain")
        #expect(inbox.endInline(reader), "an event arrived meanwhile: keep ownership for the drain")
        #expect(inbox.take(&reader)?.event == .pass)
        #expect(inbox.take(&reader) == nil)
        #expect(inbox.release(&reader), "an empty queue lets the drain stop")
        #expect(!inbox.isOwned)
        #expect(!inbox.hasMemory, "an idle inbox gives its memory back")
        guard case .queued(let next) = inbox.post(entry(.coin)) else { Issue.record("refused"); return }
        #expect(next.startProcessing, "a post into an unowned inbox starts a drain")
        #expect(!inbox.release(&reader), "a drain does not stop with an event queued")
        #expect(inbox.take(&reader)?.event == .coin)
        #expect(inbox.take(&reader) == nil)
        #expect(!inbox.endInline(reader), "an inline send over an empty queue gives ownership up")
        #expect(!inbox.isOwned)
    }

    @Test func waitersAreLetInInOrderOnceHalfTheInboxIsFree() {
        let inbox = Harness(capacity: 4)
        var reader = InboxReader<Entry>()
        for event in [Event.coin, .pass, .coin, .pass] { _ = inbox.post(entry(event)) }
        for event in [Event.reset, .coin] {
            #expect(inbox.park(entry(event)) != nil)
        }
        #expect(inbox.waiterCount == 2)
        guard case .full = inbox.post(entry(.pass)) else { Issue.record("a post overtook the waiters"); return }
        _ = inbox.take(&reader)
        inbox.tell(reader.position)
        #expect(inbox.waiterCount == 2, "one free slot is less than half the inbox")
        _ = inbox.take(&reader)
        inbox.tell(reader.position)
        #expect(inbox.waiterCount == 0)
        #expect(takeAll(inbox, &reader).map(\.event) == [.coin, .pass, .reset, .coin])
    }

    @Test func onlyQueuedSendsAreWithdrawnAndTheReaderSkipsThem() async {
        _ = await withCheckedContinuation { (continuation: CheckedContinuation<Entry.Reply, Never>) in
            let kept = Entry.ReplySlot(continuation)
            let withdrawn = Entry.ReplySlot(continuation)
            let inbox = Harness(capacity: 1_024)
            var reader = InboxReader<Entry>()
            _ = inbox.post(entry(.coin, ticket: 1))
            _ = inbox.park(entry(.pass, ticket: 2, reply: kept))
            _ = inbox.post(entry(.reset, ticket: 3))
            _ = inbox.park(entry(.coin, ticket: 4, reply: withdrawn))
            #expect(inbox.withdraw(1) == nil, "a posted event stays once queued")
            #expect(inbox.withdraw(4)?.reply === withdrawn)
            let taken = takeAll(inbox, &reader)
            #expect(taken.map(\.ticket) == [1, 2, 3, 4], "a withdrawn event stays in the queue until it is reached")
            #expect(kept.start())
            #expect(!withdrawn.start(), "the reader skips a withdrawn send")
            #expect(inbox.withdraw(2) == nil, "an event that has started cannot be withdrawn")
            continuation.resume(returning: .withdrawn)
        }
    }

    @Test func closingRefusesWaitersAndCancelsDelayedPosts() {
        let inbox = Harness(capacity: 1)
        _ = inbox.post(entry(.coin))
        _ = inbox.park(entry(.pass))
        let delayed = ScheduledEvent()
        let accepted = inbox.inbox.withLock { $0.schedule(delayed) }
        #expect(accepted)
        let (waiters, scheduled) = inbox.close(stopping: false)
        #expect(waiters.map(\.entry.event) == [.pass])
        #expect(scheduled.count == 1)
        let scheduledWhileFinishing = inbox.inbox.withLock { $0.schedule(ScheduledEvent()) }
        #expect(!scheduledWhileFinishing, "a finishing machine schedules nothing new")
        #expect(inbox.park(entry(.reset)) == nil)
    }

    @Test func eventsKeepTheirOrderAcrossSegmentsAndAfterTheMemoryIsGivenBack() {
        let segment = InboxSegment<Entry>.slotCount
        let inbox = Harness(capacity: 4 * segment)
        var reader = InboxReader<Entry>()
        var next: UInt64 = 0
        func post(_ count: Int) {
            for _ in 0..<count {
                _ = inbox.post(entry(.coin, ticket: next))
                next += 1
            }
        }
        var taken: [UInt64] = []
        post(2 * segment + 5)
        for _ in 0..<(segment + 3) { taken.append(inbox.take(&reader)!.ticket) }
        post(segment)
        taken += takeAll(inbox, &reader).map(\.ticket)
        #expect(inbox.release(&reader))
        #expect(!inbox.hasMemory)
        // The queue starts again in the middle of a segment's positions.
        post(segment + 1)
        taken += takeAll(inbox, &reader).map(\.ticket)
        #expect(taken == Array(0..<next))
    }

    /// Producers on several threads enqueue with back-pressure into a small inbox while one
    /// reader takes events, stops whenever the queue is empty, and is started again by the
    /// producer that finds nobody owning it, as a machine's drain is. Nothing may be lost or
    /// taken twice, each producer's events keep their order, and nobody waits forever.
    @Test func producersOnManyThreadsAndOneReaderLoseNothingAndKeepEachProducersOrder() async {
        let producers = 4
        let perProducer = 5_000
        let inbox = Harness(capacity: 16)
        let (wakes, waking) = AsyncStream.makeStream(of: Void.self)
        @Sendable func perform(_ resumptions: TestInbox.Resumptions) {
            if resumptions.startProcessing { waking.yield() }
            for admitted in resumptions.admitted { admitted.resume(returning: true) }
        }
        await withTaskGroup(of: Void.self) { group in
            for producer in 0..<producers {
                group.addTask {
                    for index in 0..<perProducer {
                        let ticket = UInt64(producer) << 32 | UInt64(index)
                        let admitted = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                            perform(inbox.park(entry(.coin, ticket: ticket), admitted: continuation)!)
                        }
                        #expect(admitted)
                    }
                }
            }
            var reader = InboxReader<Entry>()
            var nextIndex = [UInt64](repeating: 0, count: producers)
            var count = 0
            var starts = 0
            var owned = false
            var wakeUps = wakes.makeAsyncIterator()
            while count < producers * perProducer {
                if !owned {
                    // Stopped: wait until a producer takes ownership and starts the reader again.
                    _ = await wakeUps.next()
                    starts += 1
                    owned = true
                }
                while let entry = inbox.take(&reader, perform: perform) {
                    let producer = Int(entry.ticket >> 32)
                    #expect(entry.ticket & 0xFFFF_FFFF == nextIndex[producer], "producer \(producer) out of order")
                    nextIndex[producer] += 1
                    count += 1
                }
                owned = !inbox.release(&reader, perform: perform)
            }
            #expect(nextIndex == [UInt64](repeating: UInt64(perProducer), count: producers))
            #expect(starts > 1, "the reader stopped and was started again")
            await group.waitForAll()
        }
        #expect(inbox.queued == 0)
    }
}
