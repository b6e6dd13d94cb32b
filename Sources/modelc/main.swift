import ArgumentParsing
import Foundation

// `modelc`: Core Data models, stores and migrations from the command line.
// Exit codes: 0 ok, 1 failure or finding, 2 usage error.
let exitCode = CommandLineTool.run(Array(CommandLine.arguments.dropFirst()))
exit(exitCode.rawValue)
