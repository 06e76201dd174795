// Checks the size limits of the library targets: no source file over 300 lines, no function
// over 60, no initializer with more than 8 parameters. Run from the package root:
//     swift Tests/Limits/check.swift
// It prints each breach and exits 1 if there is any.

import Foundation

let libraries = ["ActorFSM", "ActorFSMDurability", "ActorFSMDistribution", "ActorFSMTesting", "ActorFSMSQLite",
                 "ActorFSMPostgres"]
let maximumFileLines = 300
let maximumFunctionLines = 60
let maximumInitializerParameters = 8

/// A line's code: without its comment and the contents of its string literals.
func code(of line: Substring) -> String {
    var result = ""
    var inString = false
    var previous: Character = " "
    for character in line {
        if !inString && character == "/" && previous == "/" {
            result.removeLast()
            break
        }
        if character == "\"" && previous != "\\" { inString.toggle() }
        if !inString || character == "\"" { result.append(character) }
        previous = character
    }
    return result
}

/// Where a function or initializer is declared on `line`: the keyword's offset.
func declaration(in line: String) -> (keyword: String, offset: String.Index)? {
    for keyword in ["func ", "init(", "init<", "init?("] {
        guard let range = line.range(of: keyword) else { continue }
        let before = line[line.startIndex..<range.lowerBound]
        // Only modifiers and attributes may come before the keyword.
        let words = before.split(separator: " ")
        let modifiers: Set<Substring> = ["public", "package", "private", "fileprivate", "internal", "static", "final",
                                          "override", "nonisolated", "mutating", "convenience", "required", "open",
                                          "class", "distributed", "consuming", "borrowing", "private(set)",
                                          "nonisolated(nonsending)"]
        if words.allSatisfy({ modifiers.contains($0) || $0.hasPrefix("@") }) {
            return (keyword.hasPrefix("init") ? "init" : "func", range.lowerBound)
        }
    }
    return nil
}

/// How the line after a declaration without a body starts.
let bodyless = ["}", "func ", "var ", "let ", "init", "@", "public ", "package ", "static ", "associatedtype ",
                "typealias ", "case ", "///", "subscript", "mutating ", "nonisolated "]

var breaches: [String] = []
let root = FileManager.default.currentDirectoryPath
for library in libraries {
    let folder = "\(root)/Sources/\(library)"
    let paths = (FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? [])
        .filter { $0.hasSuffix(".swift") }.sorted()
    for path in paths {
        let name = "Sources/\(library)/\(path)"
        let text = try String(contentsOfFile: "\(folder)/\(path)", encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(code(of:))
        if lines.count - 1 > maximumFileLines { breaches.append("\(name): \(lines.count - 1) lines (at most \(maximumFileLines))") }
        for (number, line) in lines.enumerated() {
            guard let found = declaration(in: line) else { continue }
            // The declaration runs to its body's opening brace, at the depth of the keyword.
            var parentheses = 0
            var angles = 0
            var braces = 0
            var parameters = 0
            var sawParameter = false
            var bodyStart: Int?
            var end: Int?
            scan: for index in number..<lines.count {
                // A declaration without a body (a protocol's requirement) ends where the next begins.
                let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
                if index > number && bodyStart == nil && parentheses == 0
                    && (trimmed.isEmpty || bodyless.contains { trimmed.hasPrefix($0) }) { break }
                let characters = index == number ? Array(lines[index][found.offset...]) : Array(lines[index])
                for (position, character) in characters.enumerated() {
                    let before = position > 0 ? characters[position - 1] : " "
                    switch character {
                    case "<" where before.isLetter || before.isNumber:
                        angles += 1
                    case ">" where before != "-" && angles > 0:
                        angles -= 1
                    case "(", "[":
                        parentheses += 1
                    case ")", "]":
                        parentheses -= 1
                    case "," where parentheses == 1 && angles == 0 && bodyStart == nil:
                        parameters += 1
                    case "{":
                        if bodyStart == nil && parentheses == 0 { bodyStart = index }
                        braces += 1
                    case "}":
                        braces -= 1
                        if bodyStart != nil && braces == 0 {
                            end = index
                            break scan
                        }
                    default:
                        if parentheses == 1 && bodyStart == nil && !character.isWhitespace { sawParameter = true }
                    }
                }
            }
            let place = "\(name):\(number + 1)"
            if found.keyword == "init" && sawParameter && parameters + 1 > maximumInitializerParameters {
                breaches.append("\(place): an initializer with \(parameters + 1) parameters (at most \(maximumInitializerParameters))")
            }
            if let end, end - number + 1 > maximumFunctionLines {
                breaches.append("\(place): a \(found.keyword == "init" ? "initializer" : "function") of \(end - number + 1) lines (at most \(maximumFunctionLines))")
            }
        }
    }
}
for breach in breaches { print(breach) }
if !breaches.isEmpty {
    print("\(breaches.count) breaches of the size limits")
    exit(1)
}
print("The library targets keep the size limits.")
