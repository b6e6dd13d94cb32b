import ArgumentParsing
import Foundation
import Persistence

/// `modelc store seed STORE --model MODEL [--rows N] [--seed S]`: deterministic synthetic data.
enum StoreSeedCommand: ModelcCommand {
  static let spec = CommandSpec(
    "seed", abstract: "Fill a store with deterministic synthetic data valid for its model.",
    discussion:
      "Adds N objects of every concrete entity (more of an entity when a relationship needs them) in one transaction, with values that keep the model's rules (required values, ranges, lengths, simple regular expressions, uniqueness) and relationships within their counts. The same seed gives the same data. A missing STORE is created (at --version, default the current version); an existing one is filled at the version it is at. A rule the seeder cannot satisfy is an error naming the entity and property.",
    positionals: [.required("STORE", help: "The store to fill (created when missing).")],
    options: [
      StoreOpening.modelOption,
      OptionSpec("--rows", value: "N", type: .integer(0...10_000_000), default: "100", help: "Objects per entity."),
      OptionSpec(
        "--seed", value: "S",
        type: .custom(expected: "a whole number from 0 to 2^64-1", isValid: { UInt64($0) != nil }),
        default: "0", help: "The random seed."),
      OptionSpec("--version", value: "NAME", help: "The version of a store created here (default: the current one)."),
    ])

  static func run(_ arguments: ParsedArguments, terminal: Terminal) throws -> ExitCode {
    let path = arguments.value("STORE")!
    let bundle = try ModelLoading.load(arguments.value("--model")!, terminal: terminal)
    let rows = arguments.integer("--rows") ?? 100
    let seed = UInt64(arguments.value("--seed") ?? "0") ?? 0
    let container: PersistentContainer
    if FileManager.default.fileExists(atPath: path) {
      container = try StoreOpening.open(path, bundle: bundle, readOnly: false)
      if let name = arguments.value("--version"), name != container.model.name {
        throw CommandFailure("the store is at version '\(container.model.name)', not '\(name)'")
      }
    } else {
      let version = try ModelLoading.version(arguments.value("--version"), in: bundle)
      container = try PersistentContainer(
        bundle: bundle, versionName: version.name, options: .file(URL(fileURLWithPath: path)))
    }
    let counts: [String: Int]
    do {
      counts = try StoreSeeder(rowsPerEntity: rows, seed: seed).seed(container.newContext())
    } catch {
      throw CommandFailure("cannot seed the store: \(error)", notes: ["nothing was added to the store"])
    }
    let total = counts.values.reduce(0, +)
    let parts = counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
    terminal.writeLine(
      "seeded \(path) at version '\(container.model.name)' with seed \(seed): \(total) object\(total == 1 ? "" : "s")\(parts.isEmpty ? "" : " (\(parts.joined(separator: ", ")))")"
    )
    return .success
  }
}
