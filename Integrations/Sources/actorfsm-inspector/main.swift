import ActorFSMDurability
import ActorFSMInspector
import ActorFSMPostgres
import ActorFSMSQLite
import Hummingbird

import Foundation

// Serves the web inspector on a store beside the process that writes it: read-only, unless
// asked for an operator's actions.

let usage = """
    usage: actorfsm-inspector --store PATH|URL [--namespace NAME] [--host ADDRESS] [--port N] [--title TEXT] [--actions]

      --store      a SQLite file or a PostgreSQL URL (postgresql://…), read beside its writer
      --namespace  the PostgreSQL namespace the store's tables carry, if it has one
      --host       the address to listen on (127.0.0.1: this machine only)
      --port       the port to listen on (8080; 0 picks a free one)
      --title      the page's title (the store's name)
      --actions    let the page pause, resume, cancel and retry machines no process runs, with a
                   token: $ACTORFSM_INSPECTOR_TOKEN, or a new one printed with the address

    """

func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("actorfsm-inspector: \(message)\n".utf8))
    exit(status)
}

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let name = arguments.popFirst() {
    if name == "--help" || name == "-h" {
        print(usage, terminator: "")
        exit(0)
    }
    if name == "--actions" {
        options[name] = ""
        continue
    }
    guard ["--store", "--namespace", "--host", "--port", "--title"].contains(name) else { fail("unknown option \(name)\n\(usage)") }
    guard let value = arguments.popFirst() else { fail("\(name) needs a value\n\(usage)") }
    options[name] = value
}
guard let location = options["--store"] else { fail("--store is required\n\(usage)") }
guard let port = Int(options["--port"] ?? "8080"), (0...65_535).contains(port) else { fail("--port must be a number from 0 to 65535") }
let host = options["--host"] ?? "127.0.0.1"

let isPostgres = location.hasPrefix("postgresql://") || location.hasPrefix("postgres://") || location.contains("host=")
    || location.contains("dbname=")
let store: any StoreInspection
do {
    if isPostgres {
        store = try PostgresReader(url: location, namespace: options["--namespace"])
    } else {
        if options["--namespace"] != nil { fail("--namespace is for PostgreSQL stores; \(location) is read as a SQLite file") }
        store = try SQLiteReader(path: location)
    }
} catch {
    // The error names the store; a PostgreSQL one without its password.
    fail("cannot open the store: \(error)", status: 1)
}

// A PostgreSQL store is named as its reader names it: without the password.
let shown = (store as? PostgresReader)?.target ?? location
let title = options["--title"] ?? (isPostgres ? "PostgreSQL store" : String(location.split(separator: "/").last ?? "store"))

/// The actions `--actions` asks for, through the store at `location` opened as a writer for each
/// act, or asked of the process that holds the store or the machine.
func operatorActions(on location: String, token given: String?, postgres: Bool, namespace: String?) -> InspectorActions {
    let token = given ?? InspectorActions.newToken()
    if token.utf8.count < 16 { fail("ACTORFSM_INSPECTOR_TOKEN must be at least 16 characters") }
    // Beside the application that holds a SQLite file, acts are asked of it through the file;
    // a signal with no application holding it is refused at once.
    guard postgres else {
        return InspectorActions(token: token, opening: { try SQLiteStore(path: location) }, closing: { $0.close() },
                                asking: {
                                    guard SQLiteRequests.hasWriter(at: location) else {
                                        throw StoreError("no application holds \(location), and only its code processes an "
                                                         + "event: signal once it runs")
                                    }
                                    return try SQLiteRequests(path: location)
                                })
    }
    return InspectorActions(token: token, opening: { try PostgresStore(url: location, namespace: namespace, summaryDelay: .zero) },
                            closing: { $0.close() },
                            asking: { try PostgresStore(url: location, namespace: namespace, summaryDelay: .zero) })
}

let givenToken = ProcessInfo.processInfo.environment["ACTORFSM_INSPECTOR_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
let actions = options["--actions"] == nil ? nil
    : operatorActions(on: location, token: givenToken, postgres: isPostgres, namespace: options["--namespace"])
let inspector = Inspector(store: store, title: title, actions: actions)
let application = inspector.application(host: host, port: port) { port in
    // Written at once, not buffered: a script waits for this line to learn the port.
    let address = host.contains(":") ? "[\(host)]" : host
    var lines = "The inspector of \(shown) is at http://\(address):\(port)/\n"
    if let actions {
        // A token the operator chose is not printed; a new one is printed once, here.
        let fragment = givenToken == nil ? "#token=\(actions.token)" : ""
        lines += "Actions are on: open http://\(address):\(port)/\(fragment) (whoever has the token can change machines)\n"
    }
    FileHandle.standardOutput.write(Data(lines.utf8))
}
do {
    try await application.runService()
} catch {
    fail("the server stopped: \(error)", status: 1)
}
