import ActorFSMTool
import Foundation

// actorfsm: reads a store's machines without the program that wrote them, and purges ended
// ones (see Tool).

let status = await Tool.run(Array(CommandLine.arguments.dropFirst()),
                            output: { FileHandle.standardOutput.write(Data($0.utf8)) },
                            errors: { FileHandle.standardError.write(Data($0.utf8)) },
                            confirm: { question in
                                FileHandle.standardError.write(Data(question.utf8))
                                return ["y", "yes"].contains(readLine()?.lowercased() ?? "")
                            })
exit(status)
