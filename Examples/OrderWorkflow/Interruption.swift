import ActorFSMTesting
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The worker processes of a cluster run, which an interruption ends before their server.
let workerProcesses = Mutex<[ChildProcess]>([])
/// Whether an interruption is ending the run: the handler exits the process, not the run.
let isInterrupted = Atomic<Bool>(false)

/// Exits with `status`, unless an interruption is ending the run: then waits for its handler,
/// which exits once the workers and the server are gone.
func exitUnlessInterrupted(_ status: Int32) -> Never {
    while isInterrupted.load(ordering: .acquiring) { sleep(1) }
    exit(status)
}

/// Ends the workers, stops `server` and exits when the process is interrupted (SIGINT,
/// SIGTERM), so that a run cut short leaves no process, server or folder behind.
///
/// - Returns: the signal sources; cancel them once the server is stopped the normal way.
func stopOnInterruption(_ server: TemporaryPostgres) -> [any DispatchSourceSignal] {
    [SIGINT, SIGTERM].map { number in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler {
            isInterrupted.store(true, ordering: .releasing)
            for worker in workerProcesses.withLock({ $0 }) {
                worker.kill()
                _ = worker.wait()
            }
            server.stop()
            let message = Array("\nInterrupted: stopped the workers and the throwaway PostgreSQL server, removed \(server.folder)\n".utf8)
            _ = message.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            _exit(128 + number)
        }
        source.resume()
        return source
    }
}

/// `--crash-after N` and `--interrupt-after N`: counts every machine's transitions from the start
/// of a run, and kills the process, or stops, shuts down or fails every service call, at the
/// Nth.
final class Interruption: Sendable {
    let crashAfter: Int?
    let interruptAfter: Int?
    let interruptBy: String
    private let interrupted = Atomic<Bool>(false)

    init(crashAfter: Int?, interruptAfter: Int?, by interruptBy: String) {
        self.crashAfter = crashAfter
        self.interruptAfter = interruptAfter
        self.interruptBy = interruptBy
    }

    /// Whether `--interrupt-after` cut the run short.
    var hasInterrupted: Bool { interrupted.load(ordering: .acquiring) }

    /// Counts the transitions `workflows` report, in a task of its own.
    func watch(_ workflows: Workflows) {
        guard crashAfter != nil || interruptAfter != nil else { return }
        let reports = workflows.reports()
        Task {
            var transitions = 0
            for await report in reports {
                guard case .transition = report else { continue }
                transitions += 1
                if transitions == interruptAfter { interrupt(workflows, after: transitions) }
                if transitions == crashAfter {
                    print("killing now, after \(transitions) transitions")
                    fflush(nil)
                    kill(getpid(), SIGKILL)
                }
            }
        }
    }

    private func interrupt(_ workflows: Workflows, after transitions: Int) {
        print("interrupting now (\(interruptBy)), after \(transitions) transitions")
        fflush(nil)
        interrupted.store(true, ordering: .releasing)
        switch interruptBy {
        case "stop": Task { await workflows.stop() }
        case "shutdown": Task { await workflows.shutdown() }
        default: everyCallFails.store(true, ordering: .relaxed)
        }
    }
}
