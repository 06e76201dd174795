import Foundation
import Synchronization

/// A PostgreSQL server of a test's own: a new cluster in a temporary folder, listening on a
/// Unix socket in that folder only, stopped and removed by ``stop()`` (or when the value goes).
///
/// ```swift
/// let server = try TemporaryPostgres.start()
/// defer { server.stop() }
/// let store = try PostgresStore(url: server.url)
/// ```
///
/// It needs the server's programs (`initdb`, `pg_ctl`, `postgres`; Debian's `postgresql`
/// package). ``unavailableReason`` says why a server cannot start here, for a test to skip with.
/// Run as root, the cluster belongs to the `postgres` user (else `nobody`), since PostgreSQL
/// refuses to run as root.
public final class TemporaryPostgres: Sendable {
    /// The connection string of the server's `postgres` database, for `PostgresStore(url:)` or `psql`.
    public let url: String
    /// The folder holding the cluster and its socket; removed by ``stop()``.
    public let folder: String
    private let programs: Programs
    private let stopped = Mutex(false)

    /// Where the server's programs are.
    struct Programs: Sendable {
        let folder: String
        var initdb: String { folder + "/initdb" }
        var pgCtl: String { folder + "/pg_ctl" }
    }

    /// Why no server can start here (the programs are missing), or `nil` if one can.
    public static var unavailableReason: String? {
        programs == nil
            ? "PostgreSQL's server programs (initdb, pg_ctl, postgres) were not found in $ACTORFSM_POSTGRES_BIN if set, "
                + "else /usr/lib/postgresql/*/bin, `pg_config --bindir` or PATH; install them (Debian: apt-get install postgresql)"
            : nil
    }

    /// Makes a cluster in a new temporary folder and starts its server.
    ///
    /// - Throws: ``TemporaryPostgres/Failure`` naming the program that failed and its output.
    public static func start() throws -> TemporaryPostgres {
        guard let programs else { throw Failure(message: unavailableReason!) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("actorfsm-pg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let server = TemporaryPostgres(folder: folder, programs: programs)
        do {
            if let owner = ClusterUser.current {
                try FileManager.default.setAttributes([.ownerAccountID: owner.user, .groupOwnerAccountID: owner.group],
                                                      ofItemAtPath: folder)
            }
            try run(programs.initdb, ["-D", folder + "/data", "-A", "trust", "-U", "actorfsm", "--no-sync",
                                      "-E", "UTF8", "--locale=C"])
            try server.startServer()
        } catch {
            server.stop()
            throw error
        }
        return server
    }

    private init(folder: String, programs: Programs) {
        self.folder = folder
        self.programs = programs
        url = "host=\(folder) user=actorfsm dbname=postgres"
    }

    deinit { stop() }

    private func startServer() throws {
        try Self.run(programs.pgCtl, ["-D", folder + "/data", "-l", folder + "/log", "-w", "-t", "60",
                                      "-o", "-k \(folder) -c listen_addresses='' -c max_connections=200", "start"])
    }

    /// Kills the server as a crash or a power cut would (`pg_ctl stop -m immediate`: no
    /// checkpoint, every connection dropped), keeping its data; ``restart()`` brings it back.
    public func kill() throws {
        try Self.run(programs.pgCtl, ["-D", folder + "/data", "-m", "immediate", "-w", "stop"])
    }

    /// Starts the server again after ``kill()``, on the same data and socket: it recovers from
    /// its write-ahead log, as a database server that restarts after a crash does.
    public func restart() throws {
        try startServer()
    }

    /// Stops the server at once and removes its folder. Calling it again does nothing; a call
    /// made while another thread stops the server returns once that stop is complete.
    public func stop() {
        stopped.withLock { stopped in
            guard !stopped else { return }
            stopped = true
            if FileManager.default.fileExists(atPath: folder + "/data/postmaster.pid") {
                try? Self.run(programs.pgCtl, ["-D", folder + "/data", "-m", "immediate", "-w", "stop"])
            }
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// Why a program failed.
    public struct Failure: Error, CustomStringConvertible {
        /// The program, its arguments and what it printed.
        public let message: String
        /// The message.
        public var description: String { message }
    }

    // MARK: - Programs

    static let programs: Programs? = {
        var candidates: [String] = []
        // Set, it is the only place looked in.
        if let folder = ProcessInfo.processInfo.environment["ACTORFSM_POSTGRES_BIN"] {
            return isComplete(folder) ? Programs(folder: folder) : nil
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            candidates.append("/usr/lib/postgresql/\(version)/bin")
        }
        if let folder = try? output(of: "pg_config", ["--bindir"]) { candidates.append(folder) }
        candidates += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return candidates.first(where: isComplete).map(Programs.init(folder:))
    }()

    private static func isComplete(_ folder: String) -> Bool {
        ["initdb", "pg_ctl", "postgres"].allSatisfy { FileManager.default.isExecutableFile(atPath: folder + "/" + $0) }
    }

    /// Runs `program` with `arguments` (as the cluster's user when this process is root).
    static func run(_ program: String, _ arguments: [String]) throws {
        _ = try output(of: program, arguments, asClusterUser: true)
    }

    /// Runs `program` and returns what it printed; it waits with `waitpid`, so it blocks the
    /// calling thread for as long as the program runs.
    @discardableResult
    static func output(of program: String, _ arguments: [String], asClusterUser: Bool = false) throws -> String {
        var command = [program] + arguments
        if let owner = asClusterUser ? ClusterUser.current : nil {
            command = ["/usr/bin/setpriv", "--reuid=\(owner.user)", "--regid=\(owner.group)", "--clear-groups"] + command
        } else if !program.hasPrefix("/") {
            command = ["/usr/bin/env"] + command
        }
        // Output goes to a file, not a pipe: the server `pg_ctl start` leaves running would hold
        // a pipe open, and reading it to its end would never finish.
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("actorfsm-pg-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var arguments = command.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, command[0], &actions, nil, &arguments, environ)
        guard spawned == 0 else { throw Failure(message: "could not start \(command[0]): error \(spawned)") }
        var status: Int32 = 0
        var waited = waitpid(child, &status, 0)
        while waited < 0 && errno == EINTR { waited = waitpid(child, &status, 0) }
        guard waited == child else {
            throw Failure(message: "could not wait for \(command[0]): error \(errno)")
        }
        let text = ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        // Exited normally with status 0: the low 7 bits (the signal) and the exit code are all 0.
        guard status == 0 else {
            let signal = status & 0x7F
            let ending = signal == 0 ? "exit status \((status >> 8) & 0xFF)" : "signal \(signal)"
            throw Failure(message: "\(program) \(command.dropFirst().joined(separator: " ")) failed (\(ending)): \(text)")
        }
        return text
    }
}

/// The user a cluster runs as when this process is root (PostgreSQL refuses root): `postgres`
/// if the system has one, else `nobody`.
struct ClusterUser {
    let user: UInt32
    let group: UInt32

    static let current: ClusterUser? = {
        guard geteuid() == 0 else { return nil }
        for name in ["postgres", "nobody"] {
            if let entry = getpwnam(name) { return ClusterUser(user: entry.pointee.pw_uid, group: entry.pointee.pw_gid) }
        }
        return nil
    }()
}
