import ActorFSM
import ActorFSMDurability

/// What the command line asks for.
struct Invocation {
    enum Command: Equatable {
        case machines
        case history(String)
        case states
        case watch
        case purge
        /// `pause`, `resume`, `cancel`, `retry` or `signal`: the machine with this id, or every one the filters select.
        case act(OperatorVerb, id: String?)
        /// `export`: the histories of the machines the filters select, as JSON.
        case export
        /// `check`: whether the schema the file describes takes up the store's machines.
        case check(descriptionFile: String)
    }

    var command: Command
    /// A SQLite file, or a PostgreSQL URL or connection string.
    var store: String
    var namespace: String?
    /// The schema `--schema` names; ``Tool`` turns it into the query's fingerprint.
    var schemaName: String?
    var query = MachineQuery()
    var olderThan: Duration?
    var format = Format.table
    var interval = Duration.seconds(1)
    var fromStart = false
    /// `purge`: count what would go, and delete nothing.
    var dryRun = false
    /// `purge`: skip the confirmation.
    var assumesYes = false
    /// `purge`: keep the summaries of the machines purged, with the status `purged`.
    var keepsSummaries = false
    /// `pause`, `resume`, `cancel`, `retry`, `signal`: why, for the machines' histories.
    var reason = ""
    /// How long `pause|resume|cancel|retry|signal` wait for the answers of the process that
    /// holds the machines, when they ask it.
    var wait = Duration.seconds(30)
    /// `signal`: the event's name, as the event prints.
    var event: String?
    /// `signal`: the event's associated values, as JSON.
    var payload: String?
    /// `check`: the stored states the application's migration maps.
    var mapped: Set<String> = []
    /// `check`: the file `--schema-description` names.
    var descriptionFile: String?

    enum Format { case table, json, dot, mermaid }

    static let usage = """
        usage: actorfsm COMMAND --store FILE|URL [--namespace NAME] [options]

        commands:
          machines              list machines, longest since their last transition first
              --state NAME  --status running|waiting|failed|final|passivated|paused|cancelled|purged
              --older-than 1h   --schema NAME   --schema-version N
              --limit N (100)   --after CURSOR (from the previous page)   --json
          history ID            what happened to one machine, entry by entry   [--json]
          states                machines per state, per schema   [--schema NAME] [--dot | --mermaid | --json]
          watch                 print machines as their transitions are written, until interrupted
              --interval 1s     --from-start
          purge                 delete the journals of ended machines at least --older-than old
              --older-than 30d (required)   --state NAME   --status final|cancelled|purged
              --schema NAME   --schema-version N
              --dry-run (count, delete nothing)   --yes (no question for more than one machine)
              --keep-summaries (keep each machine's summary, status purged: listed, counted, no history;
                                a purge without it deletes the summaries kept before)
          pause [ID]            pause a machine, or every one the filters select
          resume [ID]           resume it
          cancel [ID]           end it for good: no process restores it again
          retry [ID]            process its failed event again, from the entry before it
          signal [ID] --event NAME [--payload JSON]
                                send it an event, as the event prints (paymentReceived), with its
                                associated values as JSON ('{"amount": 120}', or one value: '120');
                                the application that runs the machine decodes and processes it
              --reason TEXT (for its history)   --state NAME   --status STATUS   --older-than 1h
              --schema NAME   --dry-run (list, change nothing)   --yes (no question for more than one)
              --wait 30s (for the answers of the application that runs the machines)
          export                the histories of the machines the filters select, as JSON, for Replay in tests
              --state NAME  --status STATUS  --older-than 1h  --schema NAME  --schema-version N
              --limit N (100: the number of machines)
          check --schema-description FILE
                                whether a new version of a schema (FILE: StoredSchema(schema:durability:).json())
                                takes up every machine of its older versions that has not ended; exit 1 if not
              --mapped STATE (a stored state the application's SchemaMigration maps; repeat for each)

        --store takes a SQLite file (read beside its writer, without its lock; purge takes the
        lock, so it runs while no process writes the file; pause, resume, cancel and retry take
        it if they can, and otherwise ask the application that holds the file, whose durable
        supervisors carry them out; signal always asks the application) or a PostgreSQL URL (postgresql://…, or a connection string
        with host=…); --namespace names the PostgreSQL schema a PostgresStore(namespace:) writes to.
        --schema takes a schema's name; where two versions of a schema share the name,
        --fingerprint HEX tells them apart.
        """

    init(_ arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        guard let name = rest.popFirst() else { throw UsageError("give a command") }
        var command: Command
        switch name {
        case "machines": command = .machines
        case "history":
            guard let id = rest.first, !id.hasPrefix("--") else { throw UsageError("history needs a machine id") }
            rest.removeFirst()
            command = .history(id)
        case "states": command = .states
        case "watch": command = .watch
        case "purge": command = .purge
        case "check": command = .check(descriptionFile: "")
        case "export": command = .export
        case "pause", "resume", "cancel", "retry", "signal":
            let verb = OperatorVerb.allCases.first { $0.description == name }!
            let id = rest.first.flatMap { $0.hasPrefix("--") ? nil : $0 }
            if id != nil { rest.removeFirst() }
            command = .act(verb, id: id)
        case "help", "--help", "-h": throw UsageError("")
        default: throw UsageError("unknown command \(name)")
        }
        self.command = command
        var store: String?
        while let option = rest.popFirst() {
            func value() throws(UsageError) -> String {
                guard let value = rest.popFirst() else { throw UsageError("\(option) needs a value") }
                return value
            }
            switch option {
            case "--store": store = try value()
            case "--namespace": namespace = try value()
            case "--state": query.state = try value()
            case "--status":
                let text = try value()
                guard let status = MachineStatus(rawValue: text) else { throw UsageError("no status \(text)") }
                query.status = status
            case "--older-than": olderThan = try Self.duration(try value())
            case "--schema-version":
                let text = try value()
                guard let version = Int(text) else { throw UsageError("--schema-version takes a number, not \(text)") }
                query.schemaVersion = version
            case "--schema": schemaName = try value()
            case "--fingerprint": query.fingerprint = try value()
            case "--limit":
                let text = try value()
                guard let limit = Int(text), (1...10_000).contains(limit) else { throw UsageError("--limit takes 1 to 10000") }
                query.limit = limit
            case "--after": query.after = try Self.cursor(try value())
            case "--interval":
                interval = try Self.duration(try value())
                guard interval >= .milliseconds(10) else { throw UsageError("--interval takes 10ms or more") }
            case "--from-start": fromStart = true
            case "--dry-run": dryRun = true
            case "--yes": assumesYes = true
            case "--keep-summaries": keepsSummaries = true
            case "--reason": reason = try value()
            case "--wait": wait = try Self.duration(try value())
            case "--event": event = try value()
            case "--payload": payload = try value()
            case "--schema-description": descriptionFile = try value()
            case "--mapped": mapped.insert(try value())
            case "--json": format = .json
            case "--dot": format = .dot
            case "--mermaid": format = .mermaid
            default: throw UsageError("unknown option \(option)")
            }
        }
        guard let store else { throw UsageError("give the store with --store") }
        self.store = store
        if case .check = command {
            guard let descriptionFile else { throw UsageError("check needs --schema-description FILE") }
            self.command = .check(descriptionFile: descriptionFile)
        } else if descriptionFile != nil || !mapped.isEmpty {
            throw UsageError("--schema-description and --mapped are for check")
        }
        if command == .purge { try checkPurge(given: Set(arguments)) }
        if command != .purge && keepsSummaries { throw UsageError("--keep-summaries is for purge") }
        if case .act = command {} else if event != nil || payload != nil {
            throw UsageError("--event and --payload are for signal")
        }
        if case .act(let verb, let id) = command { try checkAct(verb, id: id, given: Set(arguments)) }
    }

    /// What `pause`, `resume` and `cancel` need: an id or a filter (never every machine by
    /// default), and none of the listing's options.
    private func checkAct(_ verb: OperatorVerb, id: String?, given options: Set<String>) throws(UsageError) {
        let filters = ["--state", "--status", "--older-than", "--schema", "--schema-version", "--fingerprint"]
        if id == nil && !filters.contains(where: options.contains) {
            throw UsageError("\(verb) needs a machine id, or filters that select machines (--state, --status, --older-than…)")
        }
        if id != nil, let filter = filters.first(where: options.contains) {
            throw UsageError("\(verb) takes a machine id or filters, not both (\(filter))")
        }
        let unused = ["--limit", "--after", "--json", "--dot", "--mermaid", "--interval", "--from-start"].filter(options.contains)
        if let option = unused.first { throw UsageError("\(verb) takes no \(option)") }
        if verb == .signal && event == nil { throw UsageError("signal needs the event to send: --event NAME") }
        if verb != .signal, let option = ["--event", "--payload"].first(where: options.contains) {
            throw UsageError("\(verb) takes no \(option): only signal sends an event")
        }
    }

    /// What `purge` needs: an age, no status but final, cancelled or purged (and not purged when
    /// it keeps summaries), and none of the listing's
    /// options.
    private func checkPurge(given options: Set<String>) throws(UsageError) {
        _ = try purgeAge()
        if let status = query.status, ![.final, .cancelled, .purged].contains(status) {
            throw UsageError("purge deletes only final, cancelled and purged machines, not \(status.rawValue) ones")
        }
        if query.status == .purged && keepsSummaries {
            throw UsageError("--keep-summaries keeps the summaries of the machines purged: purged ones have nothing else to delete")
        }
        let unused = ["--limit", "--after", "--json", "--dot", "--mermaid", "--interval", "--from-start"].filter(options.contains)
        if let option = unused.first { throw UsageError("purge takes no \(option): it deletes every machine that matches") }
    }

    /// The age `purge` needs: machines that ended at least this long ago.
    func purgeAge() throws(UsageError) -> Duration {
        guard let olderThan else { throw UsageError("purge needs --older-than: it deletes only final and cancelled machines at least that old") }
        return olderThan
    }

    /// `90s`, `15m`, `1h`, `2d` or `500ms`.
    static func duration(_ text: String) throws(UsageError) -> Duration {
        let units: [(String, Duration)] = [("ms", .milliseconds(1)), ("s", .seconds(1)), ("m", .seconds(60)),
                                           ("h", .seconds(3_600)), ("d", .seconds(86_400))]
        for (suffix, unit) in units where text.hasSuffix(suffix) {
            if let count = Int(text.dropLast(suffix.count)), count >= 0 { return unit * count }
        }
        throw UsageError("\(text) is not a duration: give a number and ms, s, m, h or d, as 90s or 1h")
    }

    /// A page's end as `machines` prints it: `TIME/ID`.
    static func cursor(_ text: String) throws(UsageError) -> MachineCursor {
        guard let slash = text.firstIndex(of: "/"), let time = Int64(text[..<slash]) else {
            throw UsageError("--after takes the cursor a page printed, as 1764212400000/o-1042")
        }
        return MachineCursor(lastTransition: time, id: String(text[text.index(after: slash)...]))
    }
}

/// A command line that cannot be run, and why.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
