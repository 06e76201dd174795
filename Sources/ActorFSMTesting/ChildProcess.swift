import ActorFSM
import ActorFSMDurability

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A process that a test, an example or a benchmark starts and talks to in lines: its
/// standard input and output are piped to the parent. For runs of several processes sharing
/// one store (a worker per process, driven by the parent).
///
/// ```swift
/// let worker = try ChildProcess(arguments: [ChildProcess.currentExecutable, "--worker"]) { line in
///     print("worker said:", line ?? "(ended)")
/// }
/// worker.send("quit")
/// worker.wait()
/// ```
public final class ChildProcess: Sendable {
    /// The child's process id.
    public let pid: pid_t
    /// The pipe to the child's input, and the thread reading its output, until ``wait()``.
    private let ends: Locked<(input: Int32, reader: pthread_t?)?>

    /// Starts `arguments` (the program's path first), and calls `receive` from a thread of its
    /// own with each line the child prints, then with `nil` once its output ends. The parent
    /// ignores `SIGPIPE` from then on, so that writing to a child that ended does not end it.
    ///
    /// - Throws: ``Failure`` if the process cannot start.
    public init(arguments: [String], receive: @escaping @Sendable (String?) -> Void) throws(Failure) {
        signal(SIGPIPE, SIG_IGN)
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw Failure(message: "could not make pipes: error \(errno)") }
        // The parent's ends are not inherited by the children it starts later.
        _ = fcntl(toChild[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fromChild[0], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, arguments[0], &actions, nil, &argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard spawned == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw Failure(message: "could not start \(arguments[0]): error \(spawned)")
        }
        pid = child
        let output = fromChild[0]
        ends = Locked((input: toChild[1], reader: startThread(name: "child \(child)") {
            let file = fdopen(output, "r")
            var line: UnsafeMutablePointer<CChar>?
            var capacity = 0
            while true {
                let count = getline(&line, &capacity, file)
                guard count > 0, let line else { break }
                let bytes = UnsafeRawBufferPointer(start: line, count: count).prefix { $0 != UInt8(ascii: "\n") }
                receive(String(decoding: bytes, as: UTF8.self))
            }
            free(line)
            fclose(file)
            receive(nil)
        }))
    }

    /// Kills a child nobody waited for, and waits for it.
    deinit {
        if ends.withLock({ $0 != nil }) {
            kill()
            wait()
        }
    }

    /// Writes `line` and a newline to the child's standard input; nothing once the child ended
    /// or ``wait()`` was called.
    public func send(_ line: String) {
        ends.withLock { ends in
            if let input = ends?.input { Self.write(line, to: input) }
        }
    }

    /// Sends the child `signal`: `SIGKILL` (the default) ends it at once, as a crash would.
    public func kill(signal: Int32 = SIGKILL) {
        #if canImport(Glibc)
        _ = Glibc.kill(pid, signal)
        #else
        _ = Darwin.kill(pid, signal)
        #endif
    }

    /// Closes the child's input, waits for it to end and for its output to be read, and
    /// returns its status as `waitpid` gives it.
    /// Later calls return the same status.
    @discardableResult
    public func wait() -> Int32 {
        let taken = ends.withLock { ends in
            defer { ends = nil }
            return ends
        }
        guard let taken else { return status.withLock { $0 } }
        close(taken.input)
        var result: Int32 = 0
        while waitpid(pid, &result, 0) < 0 && errno == EINTR {}
        if let reader = taken.reader { pthread_join(reader, nil) }
        status.withLock { $0 = result }
        return result
    }

    private let status = Locked<Int32>(0)

    /// The path of the running program, to start another process of it.
    public static var currentExecutable: String {
        var buffer = [CChar](repeating: 0, count: 4_096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments[0]
    }

    // MARK: - The child's side

    /// Writes `line` and a newline to standard output in one `write`, so that the lines of
    /// concurrent tasks never interleave.
    public static func writeLine(_ line: String) {
        write(line, to: STDOUT_FILENO)
    }

    /// The lines of standard input, read on a thread of their own; the sequence ends with the input.
    public static func standardInputLines() -> AsyncStream<String> {
        let (lines, continuation) = AsyncStream<String>.makeStream()
        pthread_detach(startThread(name: "stdin") {
            while let line = readLine() { continuation.yield(line) }
            continuation.finish()
        })
        return lines
    }

    private static func write(_ line: String, to descriptor: Int32) {
        let bytes = Array((line + "\n").utf8)
        #if canImport(Glibc)
        _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        #else
        _ = bytes.withUnsafeBytes { Darwin.write(descriptor, $0.baseAddress, $0.count) }
        #endif
    }

    /// Why a child process could not start.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        public let message: String
        /// The message.
        public var description: String { message }
    }
}
