// fsm-diagram: prints the diagram of a bundled example schema.
// Usage: swift run fsm-diagram turnstile [--format mermaid|dot]
import ActorFSM
import ExampleSchemas

let usage = "usage: fsm-diagram turnstile [--format mermaid|dot]"
var arguments = Array(CommandLine.arguments.dropFirst())
var format = "mermaid"
if let flag = arguments.firstIndex(of: "--format") {
    guard flag + 1 < arguments.count else {
        print(usage)
        exit(2)
    }
    format = arguments[flag + 1]
    arguments.removeSubrange(flag...(flag + 1))
}
guard arguments == ["turnstile"], ["mermaid", "dot"].contains(format) else {
    print(usage)
    exit(2)
}
let schema = try TurnstileExample.schema()
print(format == "dot" ? schema.dot(name: "Turnstile") : schema.mermaid(), terminator: "")

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
