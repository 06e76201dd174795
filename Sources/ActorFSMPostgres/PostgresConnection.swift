import ActorFSM
import ActorFSMDistribution
import ActorFSMDurability
import CPostgreSQL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One libpq connection. Its calls block, so only a store's own thread uses it (and the store's
/// `init`, before that thread starts). The benchmarks measure a bare commit with one, through
/// the `Benchmarks` SPI.
@_spi(Benchmarks) public final class PostgresConnection {
    private var connection: OpaquePointer?
    /// Where it connects, without a password: what messages name.
    let target: String

    /// What a connection uses unless `url` says otherwise: give up connecting after 10 s, and
    /// notice a silent peer (a dead host, a cut network) within about 30 s rather than never.
    static let defaults = [("connect_timeout", "10"), ("keepalives", "1"), ("keepalives_idle", "10"),
                           ("keepalives_interval", "5"), ("keepalives_count", "3"), ("tcp_user_timeout", "30000")]

    /// Connects to `url` (a libpq connection string or `postgresql://` URL), with ``defaults``
    /// for the settings it does not give; with `searchPath`, unqualified names resolve in that
    /// schema first, and with `readOnly`, every transaction is read-only, on this connection
    /// and every reconnection.
    @_spi(Benchmarks) public init(url: String, searchPath: String? = nil, readOnly: Bool = false) throws(StoreError) {
        target = Self.redacting(url)
        // With expand_dbname, `url` is read as a connection string or URL, and what it gives
        // overrides the keywords before it; the search path, after it, overrides the URL's.
        let after = searchPath.map { [("options", "-c search_path=\($0)")] } ?? []
        // Run again after every reconnection: a new server connection starts from the defaults.
        setup = readOnly ? "SET default_transaction_read_only = on" : nil
        let connection = Self.withCStrings(Self.defaults.map(\.0) + ["dbname"] + after.map(\.0)) { keywords in
            Self.withCStrings(Self.defaults.map(\.1) + [url] + after.map(\.1)) { values in
                PQconnectdbParams(keywords, values, 1)
            }
        }
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let message = connection.map { Self.message(of: $0) } ?? "out of memory"
            PQfinish(connection)
            throw StoreError("could not connect to PostgreSQL at \(target): \(message)")
        }
        self.connection = connection
        if let setup { try execute(setup) }
    }

    deinit { close() }

    /// Closes the connection; a later call reconnects.
    @_spi(Benchmarks) public func close() {
        PQfinish(connection)
        connection = nil
    }

    /// Runs `sql`, which takes no parameters (it may hold several statements).
    @_spi(Benchmarks) public func execute(_ sql: String) throws(StoreError) {
        let connection = try open()
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        try check(result, sql)
    }

    /// Runs `sql` with `parameters` ($1, $2, …), and returns its rows in binary form. The
    /// server parses and plans `sql` once per connection: the statement is prepared on first use.
    @discardableResult
    @_spi(Benchmarks) public func query(_ sql: String, _ parameters: [PostgresParameter] = []) throws(StoreError) -> PostgresRows {
        let connection = try open()
        let name = try preparedName(of: sql, parameters: parameters.count, on: connection)
        let result = Self.withParameters(parameters) { values, lengths, formats in
            PQexecPrepared(connection, name, Int32(parameters.count), values, lengths, formats, 1)
        }
        do {
            try check(result, sql)
        } catch {
            PQclear(result)
            throw error
        }
        return PostgresRows(result!)
    }

    /// The name `sql` is prepared under on this connection, preparing it if need be.
    private func preparedName(of sql: String, parameters: Int, on connection: OpaquePointer) throws(StoreError) -> String {
        if let name = prepared[sql] { return name }
        let name = "actorfsm_\(prepared.count)"
        let result = PQprepare(connection, name, sql, Int32(parameters), nil)
        defer { PQclear(result) }
        try check(result, sql)
        prepared[sql] = name
        return name
    }

    /// The socket the connection reads from, to wait on for notifications; -1 when closed or lost.
    var socket: Int32 {
        guard let connection, PQstatus(connection) == CONNECTION_OK else { return -1 }
        return PQsocket(connection)
    }

    /// Reads what the server has sent, and returns the payloads of the notifications among it.
    ///
    /// - Throws: ``StoreError`` if the connection was lost (the next statement reconnects).
    func notifications() throws(StoreError) -> [String] {
        let connection = try open()
        guard PQconsumeInput(connection) == 1 else {
            throw StoreError("lost the connection to PostgreSQL at \(target): \(Self.message(of: connection))")
        }
        var payloads: [String] = []
        while let notification = PQnotifies(connection) {
            payloads.append(String(cString: notification.pointee.extra))
            PQfreemem(notification)
        }
        return payloads
    }

    /// Connects again, as a new server connection (after a failure that left it unusable).
    func reset() {
        guard let connection else { return }
        PQreset(connection)
        prepared = [:]
        if let setup, PQstatus(connection) == CONNECTION_OK { PQclear(PQexec(connection, setup)) }
    }

    /// The statements prepared on this connection, by their text.
    private var prepared: [String: String] = [:]
    /// What every server connection this one makes runs first: making its transactions read-only.
    private var setup: String?

    /// The connection, reconnecting once if the server dropped it.
    private func open() throws(StoreError) -> OpaquePointer {
        guard let connection else { throw StoreError("the connection to \(target) is closed") }
        if PQstatus(connection) != CONNECTION_OK {
            PQreset(connection)
            guard PQstatus(connection) == CONNECTION_OK else {
                throw StoreError("lost the connection to PostgreSQL at \(target): \(Self.message(of: connection))")
            }
            // A new server connection: statements are prepared again on first use.
            prepared = [:]
            if let setup {
                let result = PQexec(connection, setup)
                defer { PQclear(result) }
                try check(result, setup)
            }
        }
        return connection
    }

    private func check(_ result: OpaquePointer?, _ sql: String) throws(StoreError) {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        guard status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK else { return }
        let detail = result.flatMap { PQresultErrorMessage($0) }.map { String(cString: $0) } ?? ""
        let message = detail.isEmpty ? connection.map { Self.message(of: $0) } ?? "no result" : detail
        let statement = sql.split(separator: "\n").first.map(String.init) ?? sql
        throw StoreError("PostgreSQL at \(target) failed (\(Self.trimmed(message))) running \(statement)")
    }

    private static func message(of connection: OpaquePointer) -> String {
        trimmed(PQerrorMessage(connection).map { String(cString: $0) } ?? "unknown error")
    }

    private static func trimmed(_ message: String) -> String {
        var message = Substring(message)
        while message.last?.isNewline == true || message.last == " " { message = message.dropLast() }
        return String(message)
    }

    /// Calls `body` with `strings` as a C array of C strings, ended by a null pointer.
    private static func withCStrings<Result>(
        _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result
    ) -> Result {
        let copies = strings.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// Calls `body` with C arrays of the parameters' values, lengths and formats.
    private static func withParameters<Value>(
        _ parameters: [PostgresParameter],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> Value
    ) -> Value {
        var buffers: [UnsafeMutableRawBufferPointer] = []
        defer { for buffer in buffers { buffer.deallocate() } }
        var values: [UnsafePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        for parameter in parameters {
            let (bytes, format): ([UInt8], Int32) = switch parameter {
            case .text(let text): (Array(text.utf8) + [0], 0)
            case .binary(let bytes): (bytes, 1)
            }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
            bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
            buffers.append(buffer)
            values.append(UnsafePointer(buffer.baseAddress!.assumingMemoryBound(to: CChar.self)))
            lengths.append(Int32(bytes.count))
            formats.append(format)
        }
        return body(values, lengths, formats)
    }
}

/// A parameter of a statement: text PostgreSQL parses by the parameter's type, or raw bytes for
/// a `bytea`.
@_spi(Benchmarks) public enum PostgresParameter {
    case text(String)
    case binary([UInt8])

    /// A `bigint`.
    @_spi(Benchmarks) public static func integer(_ value: Int64) -> Self { .text(String(value)) }

    /// A `text[]`.
    static func texts(_ values: [String]) -> Self {
        .text("{" + values.map(quoted).joined(separator: ",") + "}")
    }

    /// A `bigint[]`.
    static func integers(_ values: [Int64]) -> Self {
        .text("{" + values.map(String.init).joined(separator: ",") + "}")
    }

    /// A `boolean[]`.
    static func booleans(_ values: [Bool]) -> Self {
        .text("{" + values.map { $0 ? "t" : "f" }.joined(separator: ",") + "}")
    }

    /// A `bytea[]`, each value in hexadecimal.
    static func byteArrays(_ values: [[UInt8]]) -> Self {
        var text = "{"
        text.reserveCapacity(values.reduce(2) { $0 + 2 * $1.count + 6 })
        for (index, bytes) in values.enumerated() {
            text += index == 0 ? "\"\\\\x" : ",\"\\\\x"
            text += hex(bytes)
            text += "\""
        }
        return .text(text + "}")
    }

    private static func quoted(_ value: String) -> String {
        let (quote, backslash) = (UInt8(ascii: "\""), UInt8(ascii: "\\"))
        var bytes: [UInt8] = [quote]
        bytes.reserveCapacity(value.utf8.count + 8)
        for byte in value.utf8 {
            if byte == quote || byte == backslash { bytes.append(backslash) }
            bytes.append(byte)
        }
        bytes.append(quote)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            for (index, byte) in bytes.enumerated() {
                buffer[2 * index] = digits[Int(byte >> 4)]
                buffer[2 * index + 1] = digits[Int(byte & 15)]
            }
            return bytes.count * 2
        }
    }
}

/// The rows of a result, in binary form; freed with the value.
@_spi(Benchmarks) public final class PostgresRows {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) { self.result = result }
    deinit { PQclear(result) }

    /// How many rows the result has.
    var count: Int { Int(PQntuples(result)) }

    /// The `bytea` (or any value's raw binary form) at `row`, `column`.
    func bytes(_ row: Int, _ column: Int) -> [UInt8] {
        let count = Int(PQgetlength(result, Int32(row), Int32(column)))
        guard count > 0, let value = PQgetvalue(result, Int32(row), Int32(column)) else { return [] }
        return Array(UnsafeRawBufferPointer(start: value, count: count))
    }

    func text(_ row: Int, _ column: Int) -> String {
        String(decoding: bytes(row, column), as: UTF8.self)
    }

    /// The `bigint` at `row`, `column` (big-endian in binary form).
    func integer(_ row: Int, _ column: Int) -> Int64 {
        bytes(row, column).reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }
}
