import ActorFSM
import ActorFSMDurability

/// `--history ORDER`: an order's journal, and its payment's and shipment's.
enum OrderHistory {
    static func print(_ order: Int, store: any MachineStore, workflows: Workflows) async throws {
        Swift.print("order \(order):")
        for entry in try await Durability<OrderWorkflow>(store: store).history(of: order, schema: workflows.orders.schema) {
            Swift.print(line(entry, data: ""))
        }
        Swift.print("payment-\(order):")
        let payments = Durability<PaymentWorkflow>(store: store)
        for entry in try await payments.history(of: "payment-\(order)", schema: workflows.payments.schema) {
            Swift.print(line(entry, data: ", attempts \(entry.data?.attempts ?? -1)"))
        }
        Swift.print("shipment-\(order):")
        let shipments = Durability<ShipmentWorkflow>(store: store)
        for entry in try await shipments.history(of: "shipment-\(order)", schema: workflows.shipments.schema) {
            Swift.print(line(entry, data: ""))
        }
    }

    private static func line<Definition: MachineDefinition>(_ entry: StoredTransition<Definition>, data: String) -> String {
        let what = entry.kind == .created ? "created"
            : "\(entry.event.map { "\($0)" } ?? "timeout") (\(entry.origin)): \(entry.kind)"
        return "  #\(entry.sequenceNumber) \(what), \(entry.state.map { "\($0)" } ?? "-")\(data), "
            + "\(entry.pendingEvents) pending, \(entry.timeoutsFired) timeouts fired"
    }
}
