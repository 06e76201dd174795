import ActorFSM

/// Where an order's shipment is.
enum ShipmentState: String, Codable, Hashable, Sendable { case packing, inTransit, delivered }

/// What happens to a shipment.
enum ShipmentEvent: String, Codable, Hashable, Sendable { case pick, deliver }

/// A shipment: a child machine of its order, named `shipment-` and the order's number.
enum ShipmentWorkflow: MachineDefinition {
    typealias State = ShipmentState
    typealias Event = ShipmentEvent
    typealias ID = String
    struct Data: Codable, Sendable {
        /// The order it ships.
        var order: Int
    }
}

/// The shipment workflow: each state's task asks for its step, so a shipment restored or
/// restarted anywhere goes on by itself; each call is tried again while its service fails.
func shipmentSchema(_ services: Services) throws -> Schema<ShipmentWorkflow> {
    let serviceRetries = RetryPolicy.exponential(initial: .milliseconds(1), maximum: .milliseconds(16), attempts: 8)
    return try Schema<ShipmentWorkflow>(initial: .packing, final: [.delivered]) {
        define(.packing, running: StateTask { .pick }) {
            when(.pick) | then(.inTransit) | retry(serviceRetries) { context in
                try await services.warehouse.pick(order: context.data.order)
            }
        }
        define(.inTransit, running: StateTask { .deliver }) {
            when(.deliver) | then(.delivered) | retry(serviceRetries) { context in
                try await services.carrier.deliver(order: context.data.order)
            }
        }
    }
}
