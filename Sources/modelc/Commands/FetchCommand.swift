import ArgumentParsing
import DataModel
import Foundation
import Persistence

/// `modelc fetch STORE --model MODEL --entity NAME [--where PREDICATE] [--sort KEYS] [--limit N]
/// [--offset N] [--count] [--format json|table]`: objects of a store, selected and ordered as a
/// fetch request would, printed as JSON or as a table.
enum FetchCommand: ModelcCommand {
  enum Format: String, CaseIterable {
    case json, table
  }

  static let spec = CommandSpec(
    "fetch", abstract: "Fetch objects from a store with a predicate and print them as JSON or a table.",
    discussion: """
      The store is opened read-only at the model version its metadata names. --where takes NSPredicate's format \
      syntax (title CONTAINS[cd] "milk" AND priority > 1); --sort a comma-separated list of key paths, each \
      optionally followed by [c] or [cd] and :asc or :desc (dueDate:desc,title[c]). JSON output is an array with \
      one object per result: _id (x-coredata://STORE-UUID/Entity/pN), then every attribute, then every \
      relationship as _ids — the format of modelc store export.
      Exit status: 0 success, 1 invalid predicate or sort, unknown entity or property, or unreadable store, \
      2 usage error.
      """,
    positionals: [.required("STORE", help: "The SQLite store file.")],
    options: [
      OptionSpec("--model", value: "MODEL", required: true, help: "The .xcdatamodeld bundle of the store's model."),
      OptionSpec("--entity", value: "NAME", required: true, help: "The entity to fetch (sub-entities included)."),
      OptionSpec("--where", value: "PREDICATE", help: "Which objects, in NSPredicate's format syntax."),
      OptionSpec("--sort", value: "KEYS", help: "Sort keys: key[:asc|:desc],… with [c] or [cd] for strings."),
      OptionSpec("--limit", value: "N", type: .integer(0...Int.max), help: "At most N objects."),
      OptionSpec("--offset", value: "N", type: .integer(0...Int.max), help: "Skip the first N objects."),
      OptionSpec("--format", value: "FORMAT", type: .choice(of: Format.self), default: "json", help: "Output format."),
    ],
    flags: [FlagSpec("--count", help: "Print the number of matching objects only.")])

  static func run(_ arguments: ParsedArguments, terminal: Terminal) throws -> ExitCode {
    let storePath = arguments.positionals[0]
    let storeURL = try StoreOpening.existingStore(storePath)
    let bundle = try ModelLoading.load(arguments.value("--model")!, terminal: terminal)
    let request = try makeRequest(arguments)
    let (version, metadata) = try StoreOpening.version(of: storeURL, in: bundle)
    let context: ObjectContext
    do {
      let container = try PersistentContainer(
        bundle: bundle, versionName: version.name,
        options: StoreOptions(location: .file(storeURL), isReadOnly: true, createIfMissing: false))
      context = container.newContext()
    } catch {
      throw CommandFailure("cannot open the store at '\(storePath)': \(error)")
    }

    if arguments.flag("--count") {
      terminal.writeLine("\(try context.count(for: request))")
      return .success
    }
    let format = arguments.value("--format", as: Format.self) ?? .json
    // One read transaction: the objects and the relationships printed with them are the store
    // at one moment, and reading each object's relationships costs no locking of the file.
    try context.withReadTransaction {
      let objects = try context.fetchBatches(request)
      switch format {
      case .json:
        writeJSON(objects, storeUUID: metadata.storeUUID, terminal: terminal)
      case .table:
        writeTable(objects, entityName: request.entityName, context: context, terminal: terminal)
      }
    }
    return .success
  }

  /// The fetch request the options describe; a predicate or sort that does not parse fails
  /// with the column of the mistake.
  static func makeRequest(_ arguments: ParsedArguments) throws -> FetchRequest<ManagedObject> {
    var request = FetchRequest<ManagedObject>(entityName: arguments.value("--entity")!)
    if let format = arguments.value("--where") {
      do {
        request.predicate = try FetchPredicate(format: format)
      } catch {
        throw CommandFailure("invalid predicate: \(error)", notes: [pointer(to: error.column, in: format)])
      }
    }
    if let keys = arguments.value("--sort") {
      do {
        request.sortDescriptors = try FetchSortDescriptor.list(parsing: keys)
      } catch {
        throw CommandFailure("invalid sort: \(error)", notes: [pointer(to: error.column, in: keys)])
      }
    }
    request.fetchLimit = arguments.integer("--limit")
    request.fetchOffset = arguments.integer("--offset") ?? 0
    request.fetchBatchSize = 500
    return request
  }

  /// The text with a caret under a column (from 1), for error notes.
  static func pointer(to column: Int, in text: String) -> String {
    let line = text.replacingOccurrences(of: "\n", with: " ")
    return "\(line)\n      \(String(repeating: " ", count: max(0, column - 1)))^"
  }

  // MARK: - JSON

  /// A JSON array, one object per result, written as the batches come.
  static func writeJSON(_ objects: FetchBatchSequence<ManagedObject>, storeUUID: String, terminal: Terminal) {
    var isFirst = true
    var buffer = "["
    for object in objects {
      let text = JSONWriter.prettyPrinted(ObjectJSON.json(of: object, storeUUID: storeUUID))
      buffer += isFirst ? "\n" : ",\n"
      isFirst = false
      buffer += text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
        .joined(separator: "\n")
      if buffer.utf8.count > 64 * 1024 {
        terminal.write(buffer)
        buffer = ""
      }
    }
    buffer += isFirst ? "]\n" : "\n]\n"
    terminal.write(buffer)
  }

  // MARK: - Table

  /// An aligned table for people: one row per object, a column per attribute and relationship
  /// (objects shown as `Entity/pN`, to-many relationships as their count), long values cut.
  static func writeTable(
    _ objects: FetchBatchSequence<ManagedObject>, entityName: String, context: ObjectContext, terminal: Terminal
  ) {
    var header: [String] = []
    // Each cell with its width in characters, counted once (counting walks the whole string).
    var rows: [[(text: String, width: Int)]] = []
    for object in objects {
      guard case .object(let pairs) = ObjectJSON.json(of: object, storeUUID: "") else { continue }
      if header.isEmpty { header = pairs.map(\.key) }
      var values: [String: JSONValue] = [:]
      for pair in pairs { values[pair.key] = values[pair.key] ?? pair.value }
      rows.append(
        header.map { name in
          let text = cell(values[name] ?? .null)
          return (text, text.count)
        })
    }
    guard !header.isEmpty else {
      terminal.writeLine("No \(entityName) objects match.")
      return
    }
    let headerCells = header.map { (text: $0, width: $0.count) }
    let widths = headerCells.indices.map { column in
      rows.reduce(headerCells[column].width) { max($0, $1[column].width) }
    }
    func line(_ cells: [(text: String, width: Int)]) -> String {
      var text = ""
      for (column, cell) in cells.enumerated() {
        text += cell.text
        if column < cells.count - 1 { text += String(repeating: " ", count: widths[column] - cell.width + 2) }
      }
      return text
    }
    terminal.writeLine(terminal.styled(line(headerCells), .bold, on: .standardOutput))
    for row in rows { terminal.writeLine(line(row)) }
    terminal.writeLine(
      terminal.styled("\(rows.count) \(entityName) object\(rows.count == 1 ? "" : "s")", .dim, on: .standardOutput))
  }

  /// One value as a table cell: strings bare, identities short, to-many relationships counted.
  static func cell(_ value: JSONValue) -> String {
    let text: String
    switch value {
    case .null: text = ""
    case .bool(let flag): text = flag ? "true" : "false"
    case .number(let number): text = number
    case .string(let string): text = shortIdentifier(string) ?? string
    case .array(let elements): text = elements.count == 1 ? "1 object" : "\(elements.count) objects"
    case .object: text = JSONWriter.compact(value)
    }
    let flat = text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: " ")
    return flat.count > 40 ? String(flat.prefix(39)) + "…" : flat
  }

  /// `Entity/pN` for an object identity `x-coredata://…/Entity/pN`.
  static func shortIdentifier(_ text: String) -> String? {
    guard text.hasPrefix("x-coredata://") else { return nil }
    let parts = text.split(separator: "/")
    guard parts.count >= 3 else { return nil }
    return "\(parts[parts.count - 2])/\(parts[parts.count - 1])"
  }
}
