import ArgumentParsing
import Foundation
import Persistence

/// `modelc store info STORE --model MODEL`: the version a store is at, what it holds, its history.
enum StoreInfoCommand: ModelcCommand {
  enum Format: String, CaseIterable { case text, json }

  static let spec = CommandSpec(
    "info", abstract: "Show a store's model version, object counts and migration history.",
    discussion:
      "The version is found through the entity hashes stored in the store's metadata, as Core Data finds it, so stores written by Core Data work too; the store is opened read-only. Objects are counted per entity by Z_ENT (a sub-entity's objects are not counted under its parent). Each place where the store's tables and columns differ from the layout derived from the model is listed; join tables and columns the store names otherwise, unambiguously, are read under the store's names. Exit 1 when the store matches no version of the model.",
    positionals: [.required("STORE", help: "The store to inspect.")],
    options: [
      StoreOpening.modelOption,
      OptionSpec("--format", value: "FORMAT", type: .choice(of: Format.self), default: "text", help: "Output format."),
    ])

  static func run(_ arguments: ParsedArguments, terminal: Terminal) throws -> ExitCode {
    let path = arguments.value("STORE")!
    let bundle = try ModelLoading.load(arguments.value("--model")!, terminal: terminal)
    let url = try StoreOpening.existingStore(path)
    let (version, metadata) = try StoreOpening.version(of: url, in: bundle)
    let container = try PersistentContainer(
      bundle: bundle, versionName: version.name,
      options: StoreOptions(location: .file(url), isReadOnly: true, createIfMissing: false))
    let context = container.newContext()
    var counts: [(entity: EntityDescription, count: Int)] = []
    for entity in version.entities {
      var request = FetchRequest<ManagedObject>(entityName: entity.name)
      request.includesSubentities = false
      counts.append((entity, try context.count(for: request)))
    }
    let history = try container.migrationHistory()
    let isCurrent = version.name == bundle.currentVersion.name
    if arguments.value("--format", as: Format.self) == .json {
      var object = JSONObjectBuilder()
      object.add("store", .string(path))
      object.add("version", .string(version.name))
      object.add("isCurrentVersion", .bool(isCurrent))
      object.add("currentVersion", .string(bundle.currentVersion.name))
      object.add("frameworkVersion", metadata.writtenByFrameworkVersion.map { .integer($0) } ?? .null)
      object.add("storeUUID", .string(metadata.storeUUID))
      object.add(
        "objects", .object(counts.map { (key: $0.entity.name, value: .integer($0.count)) }))
      object.add("history", .array(history.map(json(of:))))
      object.add("layoutDifferences", .array(container.layoutDifferences.map(json(of:))))
      terminal.write(JSONWriter.prettyPrinted(object.value))
      return .success
    }
    var lines = [
      "store: \(path)",
      "version: \(version.name)\(isCurrent ? " (the current version)" : " (the current version is \(bundle.currentVersion.name))")",
      "written by: Core Data framework version \(metadata.writtenByFrameworkVersion.map(String.init) ?? "unknown") (NSPersistenceFrameworkVersion)",
      "store UUID: \(metadata.storeUUID)",
      "objects:",
    ]
    let width = counts.map(\.entity.name.count).max() ?? 0
    for (entity, count) in counts {
      let name = entity.name.padding(toLength: width, withPad: " ", startingAt: 0)
      lines.append("  \(name)  \(count)\(entity.isAbstract ? " (abstract)" : "")")
    }
    lines.append(
      "  \("total".padding(toLength: width, withPad: " ", startingAt: 0))  \(counts.reduce(0) { $0 + $1.count })")
    if history.isEmpty {
      lines.append("migration history: none")
    } else {
      lines.append("migration history:")
      for record in history {
        lines.append(
          "  \(ISO8601Milliseconds.string(from: record.date))  \(record.fromVersion) → \(record.toVersion)  \(record.kind)\(record.detail.isEmpty ? "" : "  \(record.detail)")"
        )
      }
    }
    if container.layoutDifferences.isEmpty {
      lines.append("layout: as derived from the model")
    } else {
      let count = container.layoutDifferences.count
      lines.append("layout: \(count) difference\(count == 1 ? "" : "s") from the layout derived from the model")
      lines += container.layoutDifferences.map { "  \($0)" }
    }
    terminal.write(lines.joined(separator: "\n") + "\n")
    return .success
  }

  static func json(of difference: StoreLayoutDifference) -> JSONValue {
    var object = JSONObjectBuilder()
    object.add("kind", .string(difference.kind.rawValue))
    object.add("table", .string(difference.table))
    object.add("column", difference.column.map { .string($0) } ?? .null)
    object.add("storeName", difference.storeName.map { .string($0) } ?? .null)
    object.add("description", .string(difference.description))
    return object.value
  }

  static func json(of record: MigrationRecord) -> JSONValue {
    var object = JSONObjectBuilder()
    object.add("at", .string(ISO8601Milliseconds.string(from: record.date)))
    object.add("kind", .string(record.kind))
    object.add("fromVersion", .string(record.fromVersion))
    object.add("toVersion", .string(record.toVersion))
    object.add("fromChecksum", .string(record.fromChecksum))
    object.add("toChecksum", .string(record.toChecksum))
    object.add("detail", .string(record.detail))
    return object.value
  }
}
