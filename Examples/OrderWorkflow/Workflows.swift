import ActorFSM
import ActorFSMDurability

/// The supervisors of a run: the orders, and the payments and shipments the orders start as
/// child machines.
struct Workflows: Sendable {
    let orders: Supervisor<OrderWorkflow>
    let payments: Supervisor<PaymentWorkflow>
    let shipments: Supervisor<ShipmentWorkflow>

    /// Machines in memory.
    init(services: Services) throws {
        let settings = services.settings
        payments = Supervisor(schema: try paymentSchema(services), configuration: workflowConfiguration(settings))
        shipments = Supervisor(schema: try shipmentSchema(services), configuration: workflowConfiguration(settings))
        orders = Supervisor(schema: try orderSchema(services, payments: payments, shipments: shipments),
                            configuration: workflowConfiguration(settings))
    }

    /// Durable machines, each supervisor on the store `store` gives for its kind (`orders`,
    /// `payments`, `shipments`).
    init(services: Services, store: (String) throws -> any MachineStore) throws {
        let settings = services.settings
        payments = try Supervisor(schema: try paymentSchema(services),
                                  durability: Durability(store: try store("payments"), compactionInterval: 0),
                                  configuration: workflowConfiguration(settings))
        shipments = try Supervisor(schema: try shipmentSchema(services),
                                   durability: Durability(store: try store("shipments"), compactionInterval: 0),
                                   configuration: workflowConfiguration(settings))
        orders = try Supervisor(schema: try orderSchema(services, payments: payments, shipments: shipments),
                                durability: Durability(store: try store("orders"), compactionInterval: 0),
                                configuration: workflowConfiguration(settings))
    }

    /// What the three supervisors report, as one stream: it ends when the orders' reports end.
    func reports() -> AsyncStream<WorkflowReport> {
        let (stream, output) = AsyncStream<WorkflowReport>.makeStream()
        let orderReports = orders.reports()
        let paymentReports = payments.reports()
        let shipmentReports = shipments.reports()
        Task {
            for await report in paymentReports { output.yield(WorkflowReport(report) { _ in nil }) }
        }
        Task {
            for await report in shipmentReports { output.yield(WorkflowReport(report) { _ in nil }) }
        }
        Task {
            for await report in orderReports { output.yield(WorkflowReport(report) { ($0.machineID, $0.target) }) }
            output.finish()
        }
        return stream
    }

    /// Stops every machine now: the orders first, then their children.
    func stop() async {
        await orders.stop()
        await payments.stop()
        await shipments.stop()
    }

    /// Shuts every supervisor down gracefully: the orders first, then their children.
    func shutdown() async {
        await orders.shutdown()
        await payments.shutdown()
        await shipments.shutdown()
    }
}

/// One supervisor's report, as a run counts it.
enum WorkflowReport: Sendable {
    /// A transition of any machine; for an order, its id and the state it reached.
    case transition(failure: (any Error)?, machine: String, order: (id: Int, state: OrderState)?)
    case restarted
    case escalated(machine: String, error: any Error)
    case other

    init<Definition: MachineDefinition>(
        _ report: SupervisorReport<Definition>, order: (TransitionRecord<Definition>) -> (Int, OrderState)?
    ) {
        switch report {
        case .transition(let record):
            var failure: (any Error)?
            if case .failed(let error) = record.outcome { failure = error }
            self = .transition(failure: failure, machine: "\(record.machineID)",
                               order: record.outcome.isTransitioned ? order(record) : nil)
        case .restarted: self = .restarted
        case .escalated(let id, let error): self = .escalated(machine: "\(id)", error: error)
        case .terminated, .passivated: self = .other
        }
    }
}

/// The supervision every run uses: a machine whose action fails stops, and is restarted. Each
/// may fail up to 10 times a minute (a high `--failure-rate`, or a process that took over a dead
/// one's machines): one that fails more escalates. So do 200 restarts within 10 seconds across a
/// supervisor's machines: an outage of a service that thousands of machines call at once
/// restarts each of them too rarely for its own limit, since they share the cores.
func workflowConfiguration<State: Hashable & Sendable>(_ settings: Settings) -> SupervisorConfiguration<State> {
    SupervisorConfiguration<State>(
        machine: MachineConfiguration(inboxCapacity: 16, failurePolicy: .stop),
        restartStrategy: .restart,
        intensity: RestartIntensity(maxRestarts: 10, within: .seconds(60)),
        overallIntensity: RestartIntensity(maxRestarts: 200, within: .seconds(10)))
}
