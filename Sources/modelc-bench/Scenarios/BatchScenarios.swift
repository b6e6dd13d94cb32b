import Foundation
import Persistence

/// `batch-update`: one batch update request (every medium-priority task marked done) against
/// the same hand-written UPDATE.
struct BatchUpdateScenario: Scenario {
  let name = "batch-update"

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    let stores = try TaskStores(configuration)
    let rows = TaskRow.make(configuration.rows)
    return try measure(
      configuration, setUp: { _ in try stores.filledStore(rows) },
      ours: { url, _ in
        let context = try PersistentContainer(bundle: stores.bundle, options: .file(url)).newContext()
        _ = try context.execute(
          BatchUpdateRequest(
            entityName: "Task", predicate: try FetchPredicate(format: "priority == 2"),
            propertiesToUpdate: ["isCompleted": .attribute(.boolean(true))]))
        return nil
      },
      baseline: { url, _ in
        let raw = try RawSQLite(path: url.path)
        try raw.execute("BEGIN IMMEDIATE")
        try raw.execute(
          "UPDATE ZTASK SET ZISCOMPLETED = 1, Z_OPT = Z_OPT + 1 WHERE Z_ENT = \(stores.taskEntityNumber) AND ZPRIORITY = 2"
        )
        try raw.execute("COMMIT")
        return nil
      },
      result: { url in try RawSQLite.taskDigest(url) })
  }
}

/// `batch-delete`: one batch delete request (every low-priority task, with its links) against
/// the same hand-written DELETEs.
struct BatchDeleteScenario: Scenario {
  let name = "batch-delete"

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    let stores = try TaskStores(configuration)
    let rows = TaskRow.make(configuration.rows)
    return try measure(
      configuration, setUp: { _ in try stores.filledStore(rows) },
      ours: { url, _ in
        let context = try PersistentContainer(bundle: stores.bundle, options: .file(url)).newContext()
        _ = try context.execute(
          BatchDeleteRequest(entityName: "Task", predicate: try FetchPredicate(format: "priority == 3")))
        return nil
      },
      baseline: { url, _ in
        let raw = try RawSQLite(path: url.path)
        try raw.execute("BEGIN IMMEDIATE")
        try raw.execute(
          "DELETE FROM Z_2TASKS WHERE Z_3TASKS IN (SELECT Z_PK FROM ZTASK WHERE Z_ENT = \(stores.taskEntityNumber) AND ZPRIORITY = 3)"
        )
        try raw.execute("DELETE FROM ZTASK WHERE Z_ENT = \(stores.taskEntityNumber) AND ZPRIORITY = 3")
        try raw.execute("COMMIT")
        return nil
      },
      result: { url in try RawSQLite.taskDigest(url) })
  }
}
