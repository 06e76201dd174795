@testable import ActorFSM
import Testing
import TestSupport

/// The log that unbounded subscriptions share: each reader reads every record from where it
/// joined, across chunks, and a chunk is freed once every reader has passed it.
@Suite(.timeLimit(.minutes(3))) struct BroadcastTests {
    func readAll(_ reader: LogReader<Int>) async -> [Int] {
        guard var cursor = reader.makeCursor() else { return [] }
        var values: [Int] = []
        while let value = await cursor.next(isolation: nil) { values.append(value) }
        return values
    }

    @Test func readersReadEveryRecordFromWhereTheyJoinedAcrossChunks() async {
        let writer = LogWriter<Int>()
        let early = LogReader(writer.broadcast, at: writer.position, onTermination: nil)
        for value in 0..<1_000 { writer.append(value) }
        let late = LogReader(writer.broadcast, at: writer.position, onTermination: nil)
        for value in 1_000..<5_000 { writer.append(value, deferringWakeAt: .now) }
        writer.broadcast.finish()
        #expect(await readAll(early) == Array(0..<5_000))
        #expect(await readAll(late) == Array(1_000..<5_000))
    }

    @Test func aChunkIsFreedOnceEveryReaderHasPassedIt() async {
        let writer = LogWriter<Int>()
        weak let firstChunk = writer.tail
        let reader = LogReader(writer.broadcast, at: writer.position, onTermination: nil)
        var cursor = reader.makeCursor()!
        // Chunks of 16, 32 and 64 records.
        for value in 0..<100 { writer.append(value) }
        #expect(firstChunk != nil)
        for _ in 0..<50 { _ = await cursor.next(isolation: nil) }
        #expect(firstChunk == nil)
        #expect(await cursor.next(isolation: nil) == 50)
    }

    @Test func aStreamValueThatIsNotIteratedDoesNotHoldTheLogOnceItsReaderHasGone() async {
        let writer = LogWriter<Int>()
        weak let firstChunk = writer.tail
        let reader = LogReader(writer.broadcast, at: writer.position, onTermination: nil)
        #expect(writer.broadcast.liveReaders.load(ordering: .relaxed) == 1)
        reader.release(iterator: false)
        let ended = reader.isTerminated.load(ordering: .relaxed)
        #expect(ended)
        withExtendedLifetime(reader) {
            for value in 0..<100 { writer.append(value) }
            #expect(writer.broadcast.liveReaders.load(ordering: .relaxed) == 0)
            #expect(firstChunk == nil)
        }
    }

    /// A reader waiting in a task of its own for the log's next record, once it waits.
    func waitingReader(_ writer: LogWriter<Int>) async -> Task<Int?, Never> {
        let reader = LogReader(writer.broadcast, at: writer.position, onTermination: nil)
        let task = Task {
            var cursor = reader.makeCursor()!
            return await cursor.next(isolation: nil)
        }
        await writer.broadcast.untilParked(1)
        return task
    }

    @Test func aDeferredWakeUpComesAfterTheIntervalOfRecords() async {
        let writer = LogWriter<Int>()
        let task = await waitingReader(writer)
        let now = Timestamp.now
        for value in 0..<(LogWriter<Int>.wakeInterval - 1) { writer.append(value, deferringWakeAt: now) }
        #expect(writer.broadcast.hasParkedReaders)
        writer.append(-1, deferringWakeAt: now)
        #expect(!writer.broadcast.hasParkedReaders)
        #expect(await task.value == 0)
    }

    @Test func aDeferredWakeUpComesOnceTheFirstRecordIsOldEnough() async {
        let writer = LogWriter<Int>()
        let task = await waitingReader(writer)
        let now = Timestamp.now
        // The delay is 20 µs: a record 1 ns short of it does not wake the readers; one at it does.
        let delayed = Timestamp(now.instant.advanced(by: .microseconds(20)))
        writer.append(1, deferringWakeAt: now)
        writer.append(2, deferringWakeAt: Timestamp(nanoseconds: delayed.nanoseconds - 1))
        #expect(writer.broadcast.hasParkedReaders)
        writer.append(3, deferringWakeAt: delayed)
        #expect(!writer.broadcast.hasParkedReaders)
        writer.wakeReaders()  // So that a failure above fails the test instead of leaving the reader parked.
        #expect(await task.value == 1)
    }

    @Test func aDeferredWakeUpComesWhenThePublisherPauses() async {
        let writer = LogWriter<Int>()
        let task = await waitingReader(writer)
        writer.append(7, deferringWakeAt: .now)
        #expect(writer.broadcast.hasParkedReaders)
        writer.wakeReaders()
        #expect(await task.value == 7)
    }

    @Test func aRecordWithoutDeferralWakesAtOnce() async {
        let writer = LogWriter<Int>()
        let task = await waitingReader(writer)
        writer.append(9)
        #expect(await task.value == 9)
    }

    @Test func onlyTheFirstCursorReads() async {
        let writer = LogWriter<Int>()
        let reader = LogReader(writer.broadcast, at: writer.position, onTermination: nil)
        var first = reader.makeCursor()!
        #expect(reader.makeCursor() == nil)
        writer.append(1)
        #expect(await first.next(isolation: nil) == 1)
    }
}
