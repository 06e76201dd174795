@testable import ActorFSM
import Testing

/// The log that unbounded subscriptions share: each reader reads every record from where it
/// joined, across chunks, and a chunk is freed once every reader has passed it.
@Suite struct BroadcastTests {
    func readAll(_ reader: LogReader<Int>) async -> [Int] {
        guard var cursor = reader.makeCursor() else { return [] }
        var values: [Int] = []
        while let value = await cursor.next(isolation: nil) { values.append(value) }
        return values
    }

    @Test func readersReadEveryRecordFromWhereTheyJoinedAcrossChunks() async {
        var writer = LogWriter<Int>()
        let early = LogReader(writer.broadcast, at: writer.position, onTermination: nil)
        for value in 0..<1_000 { writer.append(value, deferringWake: false) }
        let late = LogReader(writer.broadcast, at: writer.position, onTermination: nil)
        for value in 1_000..<5_000 { writer.append(value, deferringWake: true) }
        writer.broadcast.finish()
        #expect(await readAll(early) == Array(0..<5_000))
        #expect(await readAll(late) == Array(1_000..<5_000))
    }

    @Test func aChunkIsFreedOnceEveryReaderHasPassedIt() async {
        var writer = LogWriter<Int>()
        weak let firstChunk = writer.tail
        let reader = LogReader(writer.broadcast, at: writer.position, onTermination: nil)
        var cursor = reader.makeCursor()!
        // Chunks of 16, 32 and 64 records.
        for value in 0..<100 { writer.append(value, deferringWake: false) }
        #expect(firstChunk != nil)
        for _ in 0..<50 { _ = await cursor.next(isolation: nil) }
        #expect(firstChunk == nil)
        #expect(await cursor.next(isolation: nil) == 50)
    }

    @Test func aStreamValueThatIsNotIteratedDoesNotHoldTheLogOnceItsReaderHasGone() async {
        var writer = LogWriter<Int>()
        weak let firstChunk = writer.tail
        var ended = false
        do {
            let reader = LogReader(writer.broadcast, at: writer.position, onTermination: nil)
            #expect(writer.broadcast.liveReaders.load(ordering: .relaxed) == 1)
            reader.release(iterator: false)
            ended = reader.isTerminated.load(ordering: .relaxed)
        }
        for value in 0..<100 { writer.append(value, deferringWake: false) }
        #expect(ended)
        #expect(writer.broadcast.liveReaders.load(ordering: .relaxed) == 0)
        #expect(firstChunk == nil)
    }

    @Test func onlyTheFirstCursorReads() async {
        var writer = LogWriter<Int>()
        let reader = LogReader(writer.broadcast, at: writer.position, onTermination: nil)
        var first = reader.makeCursor()!
        #expect(reader.makeCursor() == nil)
        writer.append(1, deferringWake: false)
        #expect(await first.next(isolation: nil) == 1)
    }
}
