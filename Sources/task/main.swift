import ArgumentParsing
import Foundation
import TaskKit

// `task`: a small task list on modelc's generated entities and view model.
// Exit codes: 0 ok; 1 not found, ambiguous, or a rule of the model broken; 2 usage error.
let code = TaskCommandLine.run(Array(CommandLine.arguments.dropFirst()))
exit(code.rawValue)
