import ActorFSM

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A worker process of a `--processes` run: this program started again with `--worker`, its
/// standard input and output piped to the driver, a line per command and per answer.
final class WorkerProcess: Sendable {
    let index: Int
    let pid: pid_t
    private let input: Int32
    private let reader: Locked<pthread_t?>

    /// Starts `arguments` (the program first) and hands each line it prints, then `nil` at its
    /// end, to `lines` with the worker's index.
    init(index: Int, arguments: [String], lines: AsyncStream<(Int, String?)>.Continuation) throws {
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw WorkerFailure("could not make pipes: error \(errno)") }
        // The driver's ends are not inherited by the other workers.
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
        guard spawned == 0 else { throw WorkerFailure("could not start \(arguments[0]): error \(spawned)") }
        self.index = index
        pid = child
        input = toChild[1]
        let output = fromChild[0]
        reader = Locked(startThread(name: "worker \(index)") {
            let file = fdopen(output, "r")
            var line: UnsafeMutablePointer<CChar>?
            var capacity = 0
            while getline(&line, &capacity, file) > 0, let text = line {
                lines.yield((index, String(cString: text).trimmingCharacters(in: "\n")))
            }
            free(line)
            fclose(file)
            lines.yield((index, nil))
        })
    }

    /// Writes `command` as a line to the worker; a dead worker's pipe ignores it.
    func send(_ command: String) {
        let line = Array((command + "\n").utf8)
        _ = line.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
    }

    /// Kills the worker at once, as a crash would.
    func crash() { _ = kill(pid, SIGKILL) }

    /// Waits for the worker to end, and for its output to be read; returns its exit status.
    @discardableResult
    func wait() -> Int32 {
        close(input)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if let thread = reader.withLock({ $0 }) { pthread_join(thread, nil) }
        return status
    }
}

struct WorkerFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var text = Substring(self)
        while text.last == character { text = text.dropLast() }
        return String(text)
    }
}

/// Writes a line to standard output in one `write`, so that the lines of concurrent tasks do
/// not interleave.
func printLine(_ text: String) {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}
