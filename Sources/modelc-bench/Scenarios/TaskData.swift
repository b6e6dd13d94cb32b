import Foundation
import Persistence

/// The synthetic tasks every store scenario uses, the same on both sides.
struct TaskRow {
  var primaryKey: Int64
  var id: UUID
  var title: String
  var priority: Int64
  var isCompleted: Bool
  var dueDate: Date?

  static let words = ["report", "Café", "garden", "invoice", "résumé", "call", "BUG", "lunch", "naïve", "plan"]

  static func make(_ count: Int) -> [TaskRow] {
    (0..<count).map { index in
      let bytes = withUnsafeBytes(of: UInt64(index + 1).bigEndian) { Array($0) }
      let id = UUID(
        uuid: (
          0x6d, 0x6f, 0x64, 0x65, 0x6c, 0x63, 0x40, 0x00, bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5],
          bytes[6], bytes[7]
        ))
      return TaskRow(
        primaryKey: Int64(index + 1), id: id, title: "Task \(index) \(words[index % words.count]) \(index % 97)",
        priority: Int64(index % 3 + 1), isCompleted: index % 4 == 0,
        dueDate: index % 5 == 0 ? nil : Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(index % 1000) * 3600))
    }
  }

  var uuidBytes: [UInt8] {
    withUnsafeBytes(of: id.uuid) { Array($0) }
  }
}

/// Fresh stores of the Tasks model for both sides.
struct TaskStores {
  /// The version the scenarios are written against (their rows, columns and hand-written SQL):
  /// the bundle's current version here, whatever the model's current version is, so that
  /// figures stay comparable across model versions.
  static let scenarioVersion = "Tasks 3"

  let bundle: ModelBundle
  let configuration: BenchmarkConfiguration
  /// The Task entity's number (`Z_ENT`) in the current version, worked out once: the baselines'
  /// SQL names it, and working it out lays out the whole model (about 0.2 ms), which must not
  /// fall inside a baseline's timing.
  let taskEntityNumber: Int

  init(_ configuration: BenchmarkConfiguration) throws {
    self.configuration = configuration
    var bundle = try ModelBundle(
      contentsOf: configuration.packageRoot.appendingPathComponent("Models/Tasks.xcdatamodeld").path)
    guard let index = bundle.index(ofVersionNamed: Self.scenarioVersion) else {
      throw BenchmarkError("the Tasks model has no version '\(Self.scenarioVersion)'")
    }
    bundle.currentVersionIndex = index
    self.bundle = bundle
    guard let task = StoreSchema(model: bundle.currentVersion).mapping(forEntityNamed: "Task") else {
      throw BenchmarkError("the Tasks model's version '\(Self.scenarioVersion)' has no Task entity")
    }
    self.taskEntityNumber = task.entityNumber
  }

  /// An empty store at `version` (default: current), laid out by the container.
  func emptyStore(version: String? = nil) throws -> URL {
    let url = configuration.directory.appendingPathComponent("store-\(UUID().uuidString).sqlite")
    _ = try PersistentContainer(bundle: bundle, versionName: version, options: .file(url))
    try Self.flush(url)
    return url
  }

  /// Writes a store's files to disk, so that no timed fsync pays for the setup's writes.
  static func flush(_ url: URL) throws {
    for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: url.path + suffix) {
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: url.path + suffix))
      try handle.synchronize()
      try handle.close()
    }
  }

  /// A store with `rows` tasks, written with plain SQL (setup is not what is measured).
  func filledStore(_ rows: [TaskRow], version: String? = nil) throws -> URL {
    let url = try emptyStore(version: version)
    let raw = try RawSQLite(path: url.path)
    let entity = StoreSchema(model: version.flatMap { bundle.version(named: $0) } ?? bundle.currentVersion)
      .mapping(forEntityNamed: "Task")!.entityNumber
    try raw.insertTasks(rows, entityNumber: entity)
    try raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    try Self.flush(url)
    return url
  }

  /// A filled store and, for our side of the object scenarios, a context with every task
  /// fetched (the baseline gets no context: it works on the rows in SQL).
  func filledStoreWithTasks(_ rows: [TaskRow], fetched: Bool) throws -> (URL, ObjectContext?, [ManagedObject]) {
    let url = try filledStore(rows)
    guard fetched else { return (url, nil, []) }
    let context = try PersistentContainer(bundle: bundle, options: .file(url)).newContext()
    return (url, context, try context.fetch(FetchRequest<ManagedObject>(entityName: "Task")))
  }
}
