import ActorFSMTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct ChildProcessTests {
    @Test func aChildAnswersInLinesAndItsEndIsReported() async throws {
        let (lines, output) = AsyncStream<String?>.makeStream()
        let child = try ChildProcess(arguments: ["/bin/cat"]) { output.yield($0) }
        child.send("first")
        child.send("second line")
        var received: [String?] = []
        for await line in lines {
            received.append(line)
            if received.count == 2 { break }
        }
        #expect(child.wait() == 0)
        #expect(received == ["first", "second line"])
    }

    @Test func aKilledChildEndsItsOutput() async throws {
        let (lines, output) = AsyncStream<String?>.makeStream()
        let child = try ChildProcess(arguments: ["/bin/cat"]) { output.yield($0) }
        child.kill()
        var iterator = lines.makeAsyncIterator()
        #expect(await iterator.next() == .some(nil))
        #expect(child.wait() & 0x7F == 9)
    }

    @Test func aMissingProgramSaysWhichOne() {
        let error = #expect(throws: ChildProcess.Failure.self) { _ = try ChildProcess(arguments: ["/nonexistent/worker"]) { _ in } }
        #expect(error?.message.contains("/nonexistent/worker") == true)
    }
}
