import DataModel
import Foundation
import Persistence
import SQLite

extension StoreMigration {
  /// The prefix of the working files a migration with mapped steps writes next to the store.
  var workFilePrefix: String { "\(storeURL.lastPathComponent).modelc-migrating-" }

  /// Runs a plan with mapped steps: every step writes or changes a working file next to the
  /// store, never the store, and the last one replaces the store in one `rename(2)` (see
  /// ``StoreFileSwap``). Inferred steps run in place on a copy of the store (one transaction
  /// per run of them); a mapped step reads the store or the previous working file and writes a
  /// new one (``HeavyweightStep``). A kill at any moment leaves the store as it was and
  /// working files the next run removes.
  func runThroughNewFiles(_ plan: MigrationPlan, options: Options, started: Date) throws -> MigrationReport {
    removeWorkFiles()
    let folder = storeURL.deletingLastPathComponent()
    var current = storeURL
    var number = 0
    func nextWorkFile() -> URL {
      number += 1
      return folder.appendingPathComponent("\(workFilePrefix)\(number).sqlite")
    }
    var records: [MigrationRecord] = []
    var inlinedFiles: [String] = []
    do {
      var index = 0
      while index < plan.steps.count {
        let step = plan.steps[index]
        if !step.mapping.isInferred {
          let work = nextWorkFile()
          var heavyweight = HeavyweightStep(
            source: step.source, destination: step.destination, mappingModel: step.mapping, policies: policies)
          heavyweight.batchSize = max(1, options.batchSize)
          heavyweight.chunkSize = max(1, options.chunkSize)
          heavyweight.stepNumber = index + 1
          heavyweight.stepCount = plan.steps.count
          heavyweight.progress = options.progress
          let record = MigrationRecord(
            date: Date(), fromVersion: step.source.name, toVersion: step.destination.name,
            fromChecksum: step.source.versionHashes.checksum, toChecksum: step.destination.versionHashes.checksum,
            kind: "mapped",
            detail:
              "\(step.mapping.entityMappings.count) entity mapping\(step.mapping.entityMappings.count == 1 ? "" : "s") run into a new store file"
          )
          _ = try heavyweight.run(from: current, into: work, date: started, record: record)
          try shareExternalData(of: work)
          records.append(record)
          if current != storeURL { StoreFileSwap.removeStoreFiles(at: current) }
          current = work
          index += 1
          continue
        }
        // A run of inferred steps, in place on a working copy.
        if current == storeURL {
          let work = nextWorkFile()
          PhaseTrace.record("migrate: working copy")
          let reader = try SQLiteConnection(.file(storeURL.path), mode: .readOnly)
          try reader.vacuum(into: work.path)
          try reader.close()
          try shareExternalData(of: work)
          current = work
        }
        PhaseTrace.record("migrate: inferred steps (working file)")
        let connection = try SQLiteConnection(.file(current.path), mode: .readWrite)
        defer { try? connection.close() }
        connection.busyTimeout = .seconds(10)
        try connection.transaction(.immediate) {
          while index < plan.steps.count && plan.steps[index].mapping.isInferred {
            let inferred = plan.steps[index]
            records.append(
              try run(inferred, number: index + 1, of: plan.steps.count, on: connection, options: options))
            inlinedFiles += try inlineExternalData(for: inferred, on: connection)
            index += 1
          }
        }
        try StoreFileSwap.makeSelfContained(connection)
        try connection.close()
      }
      PhaseTrace.record("migrate: swap")
      try StoreFileSwap.synchronize(current)
      let backupURL = options.keepsBackup ? backupURL(version: plan.source.name) : nil
      try StoreFileSwap.replace(storeAt: storeURL, with: current, backupURL: backupURL)
      if let backupURL {
        try? ExternalDataFolder.copy(fromStoreAt: storeURL, toStoreAt: backupURL)
      }
      let external = ExternalDataFolder(storeAt: storeURL)
      for name in inlinedFiles { try? FileManager.default.removeItem(at: external.fileURL(named: name)) }
      removeWorkFiles()  // The working files' external data links.
      PhaseTrace.record("migrate: done")
      return MigrationReport(
        plan: plan, backupURL: backupURL, records: records, duration: Date().timeIntervalSince(started))
    } catch {
      removeWorkFiles()
      throw error
    }
  }

  /// Removes the working files of this store's migrations (a killed run's, or a failed one's),
  /// with their external data folders. Every run does this first; call it, holding the
  /// migration lock (`StoreMigrationLock`), to tidy a store that needs no migration.
  public func removeWorkFiles() {
    let folder = storeURL.deletingLastPathComponent()
    for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    where name.hasPrefix(workFilePrefix) || name.hasPrefix("." + workFilePrefix) {
      try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
    }
  }

  /// Makes a working file use the store's external data folder: values a mapped step wrote to
  /// files (Binary attributes that allow external storage) move into the store's folder, and
  /// the working file's folder becomes a link to it, so the rows of every working file — and of
  /// the store once the last one replaces it — refer to files in the store's folder. Files
  /// moved in by a migration that then fails are referenced by nothing.
  func shareExternalData(of work: URL) throws {
    let own = ExternalDataFolder(storeAt: work)
    let shared = ExternalDataFolder(storeAt: storeURL)
    let manager = FileManager.default
    let names = own.fileNames()
    if !names.isEmpty {
      try manager.createDirectory(at: shared.url, withIntermediateDirectories: true)
      for name in names where !manager.fileExists(atPath: shared.fileURL(named: name).path) {
        try manager.moveItem(at: own.fileURL(named: name), to: shared.fileURL(named: name))
      }
    }
    try? manager.removeItem(at: own.supportURL)
    // Without files anywhere there is nothing to share (and no folder to leave behind).
    guard manager.fileExists(atPath: shared.url.path) else { return }
    try manager.createDirectory(at: own.supportURL, withIntermediateDirectories: true)
    try manager.createSymbolicLink(at: own.url, withDestinationURL: shared.url)
  }
}
