import ActorFSM
import ActorFSMTesting
import Testing
@testable import order_workflow

/// Generated paths through the order workflow's three schemas, with services that never fail
/// and a gateway that never answers: the paths' events decide each payment.
@Suite(.timeLimit(.minutes(3))) struct OrderPathsTests {
    let settings: Settings = {
        var settings = Settings()
        settings.failureRate = 0
        settings.silenceRate = 1
        settings.paymentTimeout = .seconds(86_400)
        settings.latencyMicroseconds = 0
        return settings
    }()

    @Test func everyTransitionOfAnOrderFires() async throws {
        let services = Services(settings: settings)
        let payments = Supervisor(schema: try paymentSchema(services))
        let shipments = Supervisor(schema: try shipmentSchema(services))
        let paths = GeneratedPaths(try orderSchema(services, payments: payments, shipments: shipments))
        #expect(paths.unreachable.isEmpty, "\(paths.unreachable)")
        let coverage = try await paths.run { path, clock in
            // A paid order's state task asks the customer: the path that cancels one is run
            // with a customer who does.
            var settings = settings
            settings.cancelRate = path.transitions.contains { $0.source == .paid && $0.target == .cancelled } ? 1 : 0
            let services = Services(settings: settings)
            let orders = Supervisor(schema: try orderSchema(services, payments: payments, shipments: shipments),
                                    configuration: SupervisorConfiguration(machine: MachineConfiguration(clock: clock)))
            return try orders.spawn(id: path.index, data: OrderWorkflow.Data())
        } checking: { order, record in
            #expect(record.outcome.isTransitioned, "\(record)")
            // An order that ended stays where it ended.
            if record.target.isFinal { #expect(await order.state == record.target, "\(record)") }
        }
        #expect(coverage.uncovered.isEmpty, "\(coverage)")
        #expect(coverage.covered.count == paths.schema.transitions.count)
        await payments.shutdown()
        await shipments.shutdown()
    }

    @Test func everyTransitionOfAShipmentFires() async throws {
        let schema = try shipmentSchema(Services(settings: settings))
        let paths = GeneratedPaths(schema)
        #expect(paths.unreachable.isEmpty)
        // Each state's task asks for its own step: the paths' events and the tasks' race, and
        // either fires the step.
        let coverage = try await paths.run { path, clock in
            Machine(schema: schema, id: "shipment-\(path.index)", data: ShipmentWorkflow.Data(order: path.index),
                    configuration: MachineConfiguration(clock: clock))
        }
        #expect(coverage.uncovered.isEmpty, "\(coverage)")
    }

    @Test func aPaymentsRowsAreAllReachable() async throws {
        let schema = try paymentSchema(Services(settings: settings))
        let paths = GeneratedPaths(schema)
        #expect(paths.unreachable.isEmpty)
        let coverage = try await paths.run { path, clock in
            // The decline that ends a payment is the alternative once its attempts are spent:
            // the path meant for it starts with none left.
            let spent = path.steps.contains { !$0.decidingRows.isEmpty && $0.transition.target == .declined }
            return Machine(schema: schema, id: "payment-\(path.index)",
                           data: PaymentWorkflow.Data(order: path.index, attempts: spent ? settings.maxPaymentAttempts : 0),
                           configuration: MachineConfiguration(clock: clock))
        } checking: { payment, record in
            #expect(await payment.data.attempts <= settings.maxPaymentAttempts + 1)
        }
        #expect(coverage.deadRows.isEmpty)
        // A void before the first charge races the state task that charges at once; every other
        // transition fires.
        let missed = coverage.uncovered.map { "\($0.transition.source) \($0.transition.eventDescription)" }
        #expect(missed.allSatisfy { $0 == "requested void" }, "\(coverage)")
    }
}
