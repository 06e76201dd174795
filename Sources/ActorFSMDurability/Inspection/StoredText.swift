#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A value's bytes, as the codec wrote them, shown as text: the text itself if it is printable
/// UTF-8 (JSON, from the default codec), else base64.
struct StoredText {
    /// The text.
    let text: String
    /// Whether ``text`` is the bytes themselves rather than their base64.
    let isVerbatim: Bool

    init(_ bytes: [UInt8]) {
        if let text = String(validating: bytes, as: UTF8.self),
           text.unicodeScalars.allSatisfy({ $0.value >= 0x20 || $0 == "\n" || $0 == "\t" || $0 == "\r" }) {
            self.text = text
            isVerbatim = true
        } else {
            text = Data(bytes).base64EncodedString()
            isVerbatim = false
        }
    }

    /// A name made of the bytes: a JSON string without its quotes, other text as it is.
    var name: String {
        guard isVerbatim, text.count >= 2, text.first == "\"", text.last == "\"" else { return text }
        return String(text.dropFirst().dropLast())
    }
}
