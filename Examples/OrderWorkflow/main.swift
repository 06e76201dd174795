// order-workflow: 10,000 orders, each a machine of one order schema under a supervisor, calling
// simulated services (seeded, so a run is reproducible). Usage:
//   swift run order-workflow [--orders N] [--seed S] [--failure-rate R]
import ActorFSM

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

var settings = Settings()
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    let value = arguments.popFirst()
    switch (flag, value) {
    case ("--orders", let value?) where Int(value).map({ $0 > 0 }) == true: settings.orders = Int(value)!
    case ("--seed", let value?) where UInt64(value) != nil: settings.seed = UInt64(value)!
    case ("--failure-rate", let value?) where Double(value).map({ (0..<1).contains($0) }) == true:
        settings.failureRate = Double(value)!
    default:
        print("usage: order-workflow [--orders N] [--seed S] [--failure-rate R in 0..<1]")
        exit(2)
    }
}

let services = Services(settings: settings)
let orders = Supervisor<OrderWorkflow>(
    schema: try orderSchema(services),
    configuration: SupervisorConfiguration(
        machine: MachineConfiguration(inboxCapacity: 16, failurePolicy: .stop),
        restartStrategy: .restart,
        intensity: RestartIntensity(maxRestarts: max(100, settings.orders), within: .seconds(60))))
let reports = orders.reports()
let clock = ContinuousClock()
let start = clock.now
for id in 0..<settings.orders { try orders.spawn(id: id, data: OrderWorkflow.Data()) }
for id in 0..<settings.orders {
    // A few customers change their mind before paying: the order goes from placed to cancelled.
    try orders.tryPost(to: id, services.customerCancelsEarly(order: id) ? .cancel : .submit)
}

let progress = Progress(total: settings.orders)
var finalStates: [Int: OrderState] = [:]
var processed = 0
var failures = 0
var restarts = 0
listening: for await report in reports {
    switch report {
    case .transition(let record):
        processed += 1
        if case .failed = record.outcome { failures += 1 }
        if record.outcome.isTransitioned && record.target.isFinal {
            finalStates[record.machineID] = record.target
            progress.update(finalStates.count, elapsed: clock.now - start)
            if finalStates.count == settings.orders { break listening }
        }
    case .restarted(let id, _):
        restarts += 1
        try orders.tryPost(to: id, .submit)   // the replacement starts placed: resubmit it
    case .escalated(let id, let error):
        print("\nThe supervisor escalated order \(id): \(error)")
        break listening
    case .terminated:
        break
    }
}
await orders.shutdown()
let elapsed = clock.now - start
progress.finish()

let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print("Orders: \(settings.orders) in \(String(format3(seconds))) s")
for state in [OrderState.delivered, .cancelled, .paymentFailed, .paymentExpired] {
    print("  \(state): \(finalStates.values.filter { $0 == state }.count)")
}
print("Events processed: \(processed) (\(Int(Double(processed) / max(seconds, 1e-9))) per second)")
print("Action failures: \(failures), restarts: \(restarts)")
