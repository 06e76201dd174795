// takeover-worker URL NODE WAITING PARKED [PAUSED]: holds WAITING reminders with a timer ("w0",
// "w1", …), the first PAUSED of them paused, and PARKED ones without a timer ("p0", …) in the
// PostgreSQL database at URL, as node NODE with a one-second lease; prints "ready", then waits
// to be killed (the takeover tests SIGKILL it).

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
guard arguments.count == 5 || arguments.count == 6, let waiting = Int(arguments[3]), let parked = Int(arguments[4]),
      let paused = arguments.count == 6 ? Int(arguments[5]) : 0
else {
    print("usage: takeover-worker URL NODE WAITING PARKED [PAUSED]")
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
