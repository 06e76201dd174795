import CPostgreSQL

extension PostgresConnection {
    /// `url` as libpq reads it (`host=… user=… dbname=…`), without its password.
    static func redacting(_ url: String) -> String {
        guard let options = PQconninfoParse(url, nil) else { return "(a connection string libpq cannot read)" }
        defer { PQconninfoFree(options) }
        var words: [String] = []
        var option = options
        while let keyword = option.pointee.keyword {
            let name = String(cString: keyword)
            if let value = option.pointee.val, name != "password" {
                words.append("\(name)=\(String(cString: value))")
            }
            option += 1
        }
        return words.joined(separator: " ")
    }
}
