// Checks the layer order of ActorFSM's folders (Docs/Architecture.md): a file names no type
// declared in a folder that comes after its own. Run from the package root:
//     swift Tests/Limits/layers.swift
// It prints each breach and exits 1 if there is any.

import Foundation

/// The folders of `Sources/ActorFSM`, lowest first.
let order = ["Support", "Vocabulary", "Observation", "Configuration", "DSL", "Schema", "Runtime", "Supervision"]
/// Each folder of `Sources/ActorFSM`, with the folders whose types it may name: those before it
/// in `order`, and itself. `Diagrams/` is a branch beside `Runtime/`: it reads schemas.
let allowed: [String: Set<String>] = Dictionary(uniqueKeysWithValues: order.enumerated().map { index, folder in
    (folder, Set(order[...index]))
}).merging(["Diagrams": Set(order[...order.firstIndex(of: "Schema")!] + ["Diagrams"])]) { $1 }

let root = FileManager.default.currentDirectoryPath + "/Sources/ActorFSM"

/// A file's code without its comments and the contents of its string literals.
func code(of text: String) -> String {
    var result = ""
    var inString = false, inLineComment = false, blockDepth = 0
    var previous: Character = " "
    for character in text {
        if inLineComment {
            if character == "\n" { inLineComment = false; result.append("\n") }
        } else if blockDepth > 0 {
            if previous == "*" && character == "/" { blockDepth -= 1; previous = " "; continue }
            if previous == "/" && character == "*" { blockDepth += 1; previous = " "; continue }
        } else if inString {
            if character == "\"" && previous != "\\" { inString = false; result.append(character) }
            if character == "\n" { result.append("\n") }
        } else if previous == "/" && character == "/" {
            result.removeLast()
            inLineComment = true
        } else if previous == "/" && character == "*" {
            result.removeLast()
            blockDepth = 1
            previous = " "
            continue
        } else {
            if character == "\"" { inString = true }
            result.append(character)
        }
        previous = character
    }
    return result
}

/// The names of the types a file declares at its top level.
func declaredTypes(in code: String) -> [String] {
    let pattern = try! NSRegularExpression(
        pattern: #"^(?:(?:@\w+(?:\([^)]*\))?|public|package|internal|private|fileprivate|final|indirect|nonisolated)\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z]\w*)"#,
        options: [.anchorsMatchLines])
    return pattern.matches(in: code, range: NSRange(code.startIndex..., in: code)).map {
        String(code[Range($0.range(at: 1), in: code)!])
    }
}

var breaches: [String] = []
let folders = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
for folder in folders.sorted() where !folder.hasSuffix(".docc") && allowed[folder] == nil {
    breaches.append("Sources/ActorFSM/\(folder)/ has no place in the layer order: add it to Tests/Limits/layers.swift "
                    + "and Docs/Architecture.md")
}
var files: [(folder: String, path: String, code: String)] = []
for folder in allowed.keys.sorted() {
    let paths = (FileManager.default.enumerator(atPath: "\(root)/\(folder)")?.compactMap { $0 as? String } ?? [])
        .filter { $0.hasSuffix(".swift") }.sorted()
    for path in paths {
        let text = try String(contentsOfFile: "\(root)/\(folder)/\(path)", encoding: .utf8)
        files.append((folder, "Sources/ActorFSM/\(folder)/\(path)", code(of: text)))
    }
}
var home: [String: String] = [:]
for file in files {
    for name in declaredTypes(in: file.code) { home[name] = file.folder }
}
let word = try! NSRegularExpression(pattern: #"\b[A-Z]\w*\b"#)
for file in files {
    let named = Set(word.matches(in: file.code, range: NSRange(file.code.startIndex..., in: file.code)).map {
        String(file.code[Range($0.range, in: file.code)!])
    })
    for name in named.sorted() {
        guard let folder = home[name], !allowed[file.folder]!.contains(folder) else { continue }
        breaches.append("\(file.path) names \(name), a type of \(folder)/, which comes after \(file.folder)/")
    }
}
for breach in breaches { print(breach) }
if breaches.isEmpty {
    print("The folders of ActorFSM keep their layer order.")
} else {
    exit(1)
}
