/// A store that carries ``OperatorRequest``s to the process that runs a machine: `SQLiteStore`
/// (and `SQLiteRequests`, beside the process that holds the file) and `PostgresStore`.
///
/// A durable supervisor over such a store takes the requests for machines of its schema every
/// ``Durability/operatorRequestInterval``, carries each out as its own `pause`, `resume`,
/// `cancel` or `retry` would, and answers. Each request is taken once: by one supervisor, of one
/// process. A process that dies holding a request leaves it unanswered, and its progress
/// ``OperatorRequestProgress/abandoned``; its act, if it was done, is in the machine's history.
public protocol OperatorRequestQueue: Sendable {
    /// Queues `request` and returns its number.
    func submit(_ request: OperatorRequest) async throws(StoreError) -> Int64

    /// Where the request numbered `number` is.
    func progress(ofRequest number: Int64) async throws(StoreError) -> OperatorRequestProgress

    /// Removes the request numbered `number` if no process has taken it; `false` if one has.
    func withdraw(request number: Int64) async throws(StoreError) -> Bool

    /// Takes at most `limit` waiting requests for machines of the schema named `schema` that
    /// this process may act on, oldest first: no other process takes them after this.
    func takeRequests(forSchema schema: String, limit: Int) async throws(StoreError) -> [OperatorRequest]

    /// Records the answer to the request numbered `number`, which this process took.
    func answer(request number: Int64, succeeded: Bool, message: String) async throws(StoreError)
}
