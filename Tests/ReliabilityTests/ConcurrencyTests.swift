import Foundation
import Persistence
import TestSupport
import Testing

/// Several processes and several contexts writing one store at once: no write lost or
/// duplicated, no "database is locked" reaching the user.
@Suite("Concurrency")
struct ConcurrencyTests {
  /// Workers × operations of the multi-process test: small by default (CI), the full campaign
  /// with `MODELC_CONCURRENCY_WORKERS=8 MODELC_CONCURRENCY_OPS=200`.
  static let workers = Int(ProcessInfo.processInfo.environment["MODELC_CONCURRENCY_WORKERS"] ?? "") ?? 4
  static let operations = Int(ProcessInfo.processInfo.environment["MODELC_CONCURRENCY_OPS"] ?? "") ?? 16

  /// What one worker process loop saw.
  final class WorkerLog: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var failures: [String] = []
    private(set) var added: [String: String] = [:]
    private(set) var completed: Set<String> = []

    func record(failure: String) { lock.withLock { failures.append(failure) } }
    func record(added title: String, id: String) { lock.withLock { added[title] = id } }
    func record(completed title: String) { lock.withLock { _ = completed.insert(title) } }
  }

  @Test(
    "Processes running task add and task done on one store at once lose and duplicate nothing",
    .enabled(if: Reliability.executablesBuilt, Comment(rawValue: Reliability.executablesAbsent)))
  func processesShareOneStore() throws {
    let scratch = Scratch("concurrency")
    let store = scratch.path("Tasks.sqlite")
    // An older store, so that the first processes race to migrate it too.
    try Reliability.versionOneStore(at: URL(fileURLWithPath: store), count: 10)
    let log = WorkerLog()
    let task = Reliability.task!
    let started = Date()
    DispatchQueue.concurrentPerform(iterations: Self.workers) { worker in
      for operation in 0..<Self.operations {
        let title = "worker \(worker) op \(operation)"
        do {
          let add = try ProcessRun.run(task, ["add", title, "--store", store])
          guard add.status == 0 else {
            log.record(failure: "add '\(title)' exited \(add.status): \(add.error)")
            continue
          }
          let id = add.output.trimmingCharacters(in: .whitespacesAndNewlines)
          log.record(added: title, id: id)
          if operation % 2 == 1 {
            let done = try ProcessRun.run(task, ["done", id, "--store", store])
            if done.status == 0 {
              log.record(completed: title)
            } else {
              log.record(failure: "done '\(title)' exited \(done.status): \(done.error)")
            }
          }
        } catch {
          log.record(failure: "\(title): \(error)")
        }
      }
    }
    let seconds = Date().timeIntervalSince(started)
    print(
      "concurrency: \(Self.workers) processes × \(Self.operations) adds (+ a done on every second one) in \(String(format: "%.1f", seconds)) s; \(log.failures.count) failures"
    )
    #expect(log.failures.isEmpty, "\(log.failures.prefix(5))")

    let list = try ProcessRun.run(task, ["list", "--json", "--store", store])
    #expect(list.status == 0, "\(list.error)")
    let tasks = try #require(
      try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]])
    let workerTasks = tasks.filter { ($0["title"] as? String)?.hasPrefix("worker ") == true }
    let titles = workerTasks.compactMap { $0["title"] as? String }
    // Nothing lost, nothing duplicated.
    #expect(titles.count == Self.workers * Self.operations)
    #expect(Set(titles).count == titles.count)
    #expect(Set(titles) == Set(log.added.keys))
    #expect(tasks.count == titles.count + 10)
    // Every done took.
    let completed = Set(workerTasks.filter { $0["isCompleted"] as? Bool == true }.compactMap { $0["title"] as? String })
    #expect(completed == log.completed)
    #expect(completed.count == Self.workers * (Self.operations / 2))
    for task in workerTasks {
      let title = task["title"] as? String ?? ""
      #expect(task["id"] as? String == log.added[title])
    }
    #expect(try Reliability.integrity(URL(fileURLWithPath: store)) == "ok")
  }

  @Test(
    "Processes opening an older store at once: one migrates it, the others wait and use it",
    .enabled(if: Reliability.executablesBuilt, Comment(rawValue: Reliability.executablesAbsent)))
  func simultaneousMigrations() throws {
    let scratch = Scratch("simultaneous-migration")
    let store = scratch.file("Tasks.sqlite")
    try Reliability.versionOneStore(at: store, count: 2_000)
    // Every `task` migrates through inferred steps and the mapped step Tasks 3 → Tasks 4 (whose
    // policy is in TaskKit): one does, the others wait and find it done.
    let started = try (0..<6).map { index in
      index % 2 == 0
        ? try ProcessRun.start(Reliability.task!, ["list", "--json", "--store", store.path])
        : try ProcessRun.start(Reliability.task!, ["add", "added \(index)", "--store", store.path])
    }
    for run in try started.map(ProcessRun.finish) {
      #expect(run.status == 0, "\(run.error)")
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
    #expect(files.filter { $0.contains("modelc-backup") && $0.hasSuffix(".sqlite") }.count == 1, "\(files)")
    #expect(!files.contains { $0.hasSuffix(".partial") }, "\(files)")
    #expect(try StoreMetadata.read(fromStoreAt: store).matchingVersion(in: Reliability.bundle)?.name == "Tasks 4")
    #expect(try Reliability.integrity(store) == "ok")
  }

  @Test("Background contexts saving while others fetch: no crash, counts only grow, merges complete")
  func backgroundContextsSaveWhileOthersFetch() async throws {
    let scratch = Scratch("background")
    let container = try PersistentContainer(
      bundle: Reliability.bundle, options: .file(scratch.file("Tasks.sqlite")))
    let writers = 4
    let savesPerWriter = 10
    let objectsPerSave = 20
    let merged = MergeTarget(container.newContext())
    let observation = container.addSaveObserver { merged.merge($0) }
    defer { observation.cancel() }

    try await withThrowingTaskGroup(of: Void.self) { group in
      for writer in 0..<writers {
        group.addTask {
          for save in 0..<savesPerWriter {
            try await container.performBackgroundTask { context in
              for index in 0..<objectsPerSave {
                let task = try context.insert(entityNamed: "Task")
                try task.setValue(.uuid(UUID()), forKey: "id")
                try task.setValue(.string("w\(writer) s\(save) #\(index)"), forKey: "title")
                try task.setValue(.integer(Int64(index % 3 + 1)), forKey: "priority")
              }
              try context.save()
            }
          }
        }
      }
      for _ in 0..<4 {
        group.addTask {
          var last = 0
          for _ in 0..<25 {
            let count = try await container.performBackgroundTask { context in
              try context.count(for: FetchRequest<ManagedObject>(entityName: "Task"))
            }
            #expect(count >= last, "a fetch saw fewer objects than an earlier one")
            #expect(count % objectsPerSave == 0, "a fetch saw part of a save: \(count)")
            last = count
          }
        }
      }
      try await group.waitForAll()
    }
    let total = writers * savesPerWriter * objectsPerSave
    let check = container.newContext()
    let titles = try check.fetch(FetchRequest<ManagedObject>(entityName: "Task")).map {
      try $0.value(forKey: "title")
    }
    #expect(titles.count == total)
    #expect(Set(titles.map { "\(String(describing: $0))" }).count == total)
    #expect(merged.insertedCount == total)
  }
}

/// A context that merges every save notification it is given, under a lock.
final class MergeTarget: @unchecked Sendable {
  private let lock = NSLock()
  private let context: ObjectContext
  private(set) var insertedCount = 0

  init(_ context: ObjectContext) {
    self.context = context
  }

  func merge(_ notification: SaveNotification) {
    lock.withLock {
      context.mergeChanges(from: notification)
      insertedCount += notification.insertedObjects.count
    }
  }
}
