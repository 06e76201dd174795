// takeover-worker URL NODE WAITING PARKED [PAUSED]: holds WAITING reminders with a timer ("w0",
// "w1", …), the first PAUSED of them paused, and PARKED ones without a timer ("p0", …) in the
// PostgreSQL database at URL, as node NODE with a one-second lease; prints "ready", then waits
// to be killed (the takeover tests SIGKILL it).
//
// takeover-worker URL NODE ringing: holds reminder "r0" and serves operators' requests every
// 20 ms; prints "ready", and "ringing" once a ring's action starts, which never ends.
// takeover-worker sqlite PATH ringing: the same, in the SQLite store at PATH.

import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMSQLite
import ActorFSMTesting
import TestFixtures

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Holds reminder "r0" in `store`, serving requests, until killed.
func holdRinging(in store: any MachineStore) async throws -> Never {
    var durability = Durability<Reminder>(store: store)
    durability.operatorRequestInterval = .milliseconds(20)
    let schema = try reminderSchema {
        ChildProcess.writeLine("ringing")
        for await _ in AsyncStream<Never>.makeStream().stream {}
    }
    let reminders = try Supervisor(schema: schema, durability: durability)
    try await reminders.activate(id: "r0")
    ChildProcess.writeLine("ready")
    for await _ in ChildProcess.standardInputLines() {}
    exit(0)
}

let arguments = CommandLine.arguments
if arguments.count == 4 && arguments[3] == "ringing" {
    if arguments[1] == "sqlite" { try await holdRinging(in: try SQLiteStore(path: arguments[2])) }
    try await holdRinging(in: try PostgresStore(url: arguments[1], node: arguments[2], leaseDuration: .seconds(1), summaryDelay: .zero))
}
guard arguments.count == 5 || arguments.count == 6, let waiting = Int(arguments[3]), let parked = Int(arguments[4]),
      let paused = arguments.count == 6 ? Int(arguments[5]) : 0
else {
    print("usage: takeover-worker URL NODE WAITING PARKED [PAUSED] | takeover-worker URL|sqlite NODE|PATH ringing")
    exit(2)
}
let store = try PostgresStore(url: arguments[1], node: arguments[2], leaseDuration: .seconds(1))
let reminders = try Supervisor(schema: try reminderSchema(), durability: Durability(store: store))
try await withThrowingTaskGroup(of: Void.self) { group in
    for index in 0..<(waiting + parked) {
        if index >= 500 { try await group.next() }
        group.addTask {
            if index < waiting {
                try await reminders.activate(id: "w\(index)")
            } else {
                try await reminders.activate(id: "p\(index - waiting)")
                try await reminders.send(to: "p\(index - waiting)", .park)
            }
        }
    }
    try await group.waitForAll()
}
for index in 0..<paused { try await reminders.pause("w\(index)", reason: "held for the takeover test") }
ChildProcess.writeLine("ready")
for await _ in ChildProcess.standardInputLines() {}
