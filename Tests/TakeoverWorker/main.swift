// takeover-worker URL NODE WAITING PARKED: holds WAITING reminders with a timer ("w0", "w1", …)
// and PARKED ones without ("p0", …) in the PostgreSQL database at URL, as node NODE with a
// one-second lease; prints "ready", then waits to be killed (the takeover tests SIGKILL it).

import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting
import TestFixtures

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments
guard arguments.count == 5, let waiting = Int(arguments[3]), let parked = Int(arguments[4]) else {
    print("usage: takeover-worker URL NODE WAITING PARKED")
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
ChildProcess.writeLine("ready")
for await _ in ChildProcess.standardInputLines() {}
