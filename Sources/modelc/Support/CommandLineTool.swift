import ArgumentParsing
import Foundation

/// One `modelc` subcommand: its specification and what it does.
protocol ModelcCommand {
  /// The command's name, arguments and help.
  static var spec: CommandSpec { get }
  /// Runs the command; returns the exit code, or throws ``CommandFailure`` (exit 1).
  static func run(_ arguments: ParsedArguments, terminal: Terminal) throws -> ExitCode
}

/// A failure to report on standard error with exit code 1.
struct CommandFailure: Error, CustomStringConvertible {
  var message: String
  /// Lines printed indented under the message (each problem of a refused import…).
  var details: [String] = []
  var notes: [String] = []

  init(_ message: String, details: [String] = [], notes: [String] = []) {
    self.message = message
    self.details = details
    self.notes = notes
  }

  var description: String { message }
}

/// Parses the command line and runs the chosen command.
enum CommandLineTool {
  static var commands: [any ModelcCommand.Type] {
    [
      ValidateCommand.self, DumpCommand.self, DiffCommand.self, GenerateCommand.self, MigrateCommand.self,
      StoreCommand.self, FetchCommand.self, MappingCommand.self, CheckCommand.self, DiagramCommand.self,
    ]
  }

  static var spec: CommandSpec {
    CommandSpec(
      "modelc",
      abstract: "Core Data models, stores and migrations on every platform Swift runs on.",
      discussion: "Exit codes: 0 success, 1 failure or finding, 2 usage error.",
      subcommands: commands.map { $0.spec })
  }

  static func run(_ arguments: [String]) -> ExitCode {
    let terminal = Terminal.current()
    let parsed: ParsedArguments
    switch spec.parse(arguments, reportingTo: terminal) {
    case .exit(let code): return code
    case .run(let result): parsed = result
    }
    guard let name = parsed.subcommandPath.first,
      let command = commands.first(where: { $0.spec.name == name })
    else {
      terminal.write(spec.helpText(for: []) ?? "", to: .standardError)
      return .usage
    }
    do {
      return try command.run(parsed, terminal: terminal)
    } catch let failure as CommandFailure {
      terminal.writeLine(
        "modelc \(parsed.subcommandPath.joined(separator: " ")): error: \(failure.message)", to: .standardError)
      for detail in failure.details {
        terminal.writeLine("  \(detail)", to: .standardError)
      }
      for note in failure.notes {
        terminal.writeLine("note: \(note)", to: .standardError)
      }
      return .failure
    } catch let error as UsageError {
      terminal.writeLine(error.description, to: .standardError)
      return .usage
    } catch {
      terminal.writeLine("modelc \(parsed.subcommandPath.joined(separator: " ")): error: \(error)", to: .standardError)
      return .failure
    }
  }
}

/// A command made of subcommands (`modelc store …`, `modelc mapping …`): runs the one named on
/// the command line, or prints the group's help and exits with a usage error when none is.
enum CommandGroup {
  static func run(
    _ subcommands: [any ModelcCommand.Type], group: String, arguments: ParsedArguments, terminal: Terminal
  ) throws -> ExitCode {
    let path = arguments.subcommandPath
    guard path.count >= 2, let command = subcommands.first(where: { $0.spec.name == path[1] }) else {
      terminal.write(CommandLineTool.spec.helpText(for: [group]) ?? "", to: .standardError)
      return .usage
    }
    return try command.run(arguments, terminal: terminal)
  }
}
