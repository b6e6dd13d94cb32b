import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A heavyweight migration (`modelc migrate --mappings`) killed with SIGKILL at named points —
/// in each stage, in the verification, and on both sides of the swap's rename — leaves the
/// store intact and openable (at the old version with its old data, or, once the rename is
/// done, at the new version with all of it), and the next `modelc migrate` succeeds and leaves
/// no working file.
///
/// The kills are deterministic: `MODELC_KILL_AT_PHASE` makes the process SIGKILL itself when it
/// reaches the first traced phase starting with the text given (see `PhaseTrace`), and the
/// trace written through `MODELC_PHASE_TRACE` shows it stopped there. `scripts/crash-campaign
/// --operations heavyweight` adds kills at random moments.
@Suite("Heavyweight migrations killed at named phases")
struct HeavyweightKillTests {
  static let model = TestPaths.fixtures.appendingPathComponent("models/Bookshelf.xcdatamodeld").path
  static let mappingFixture = TestPaths.fixtures.appendingPathComponent(
    "mappings/BookshelfToBookshelf2.xcmappingmodel")

  /// A phase to kill the migration at, and what it must leave.
  struct KillPoint: Sendable, CustomTestStringConvertible {
    /// The start of the traced phase the process stops at.
    var phase: String
    /// Where that is, in words.
    var place: String
    /// Whether the store is at the new version afterwards (the rename was done).
    var migrated: Bool
    /// Whether the new store file is being written, so that it is left for the next run to remove.
    var leavesWorkingFile: Bool

    var testDescription: String { place }
  }

  /// The Bookshelf → Bookshelf 2 mapping runs AuthorToAuthor, BookToBook, Remark and TagToTag;
  /// then the inferred step Bookshelf 2 → Bookshelf 3 runs on the new file, which is swapped in.
  static let points: [KillPoint] = [
    KillPoint(
      phase: "migrate: heavyweight stage 1 (BookToBook)", place: "during stage 1, after the authors were created",
      migrated: false, leavesWorkingFile: true),
    KillPoint(
      phase: "migrate: copy step 1/2 1/2", place: "during stage 2, between the two relationship writes of BookToBook",
      migrated: false, leavesWorkingFile: true),
    KillPoint(
      phase: "migrate: heavyweight stage 3 (validation)", place: "at the start of stage 3 (validation)",
      migrated: false, leavesWorkingFile: true),
    KillPoint(
      phase: "migrate: heavyweight verify (integrity, layout)",
      place: "during the verification, after the new file's metadata and history were written",
      migrated: false, leavesWorkingFile: true),
    KillPoint(
      phase: "migrate: inferred steps (working file)", place: "before the inferred step runs on the new file",
      migrated: false, leavesWorkingFile: true),
    KillPoint(
      phase: "migrate: swap (backup link)", place: "in the swap, after the original was made self-contained",
      migrated: false, leavesWorkingFile: true),
    KillPoint(
      phase: "migrate: swap (rename)", place: "in the swap, after the backup link and before the rename",
      migrated: false, leavesWorkingFile: true),
    KillPoint(
      phase: "migrate: swap (renamed)", place: "in the swap, right after the rename", migrated: true,
      leavesWorkingFile: false),
  ]

  /// A seeded store at `Bookshelf` and a folder holding the fixture mapping.
  static func prepare(in scratch: Scratch) throws -> (store: String, mappings: String) {
    let modelc = try #require(Reliability.modelc)
    let store = scratch.path("shelf.sqlite")
    let seeded = try ProcessRun.run(
      modelc, ["store", "seed", store, "--model", model, "--version", "Bookshelf", "--rows", "300", "--seed", "5"])
    try #require(seeded.status == 0, "\(seeded.error)")
    let mappings = scratch.path("Migrations")
    try FileManager.default.createDirectory(atPath: mappings, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: mappingFixture.path, toPath: mappings + "/" + mappingFixture.lastPathComponent)
    return (store, mappings)
  }

  /// `modelc migrate` of a store through the mappings, with extra environment variables.
  static func migrate(_ store: String, mappings: String, environment: [String: String?] = [:]) throws -> ProcessRun {
    try ProcessRun.run(
      try #require(Reliability.modelc), ["migrate", store, "--model", model, "--mappings", mappings],
      environment: environment)
  }

  /// The store's objects as `modelc store export` prints them (whichever version it is at).
  static func export(_ store: String) throws -> String {
    let exported = try ProcessRun.run(
      try #require(Reliability.modelc), ["store", "export", store, "--model", model, "--format", "json"])
    try #require(exported.status == 0, "export of \(store): \(exported.error)")
    return exported.output
  }

  /// A copy of a store file (with its `-wal` and `-shm`) in a folder of its own, with the same name.
  static func copy(_ store: String, into scratch: Scratch, folder: String) throws -> String {
    let directory = scratch.file(folder)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let name = URL(fileURLWithPath: store).lastPathComponent
    for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: store + suffix) {
      try FileManager.default.copyItem(
        atPath: store + suffix, toPath: directory.appendingPathComponent(name).path + suffix)
    }
    return directory.appendingPathComponent(name).path
  }

  /// The names in a store's folder that a migration writes next to it.
  static func files(besides store: String, containing marker: String) throws -> [String] {
    let folder = URL(fileURLWithPath: store).deletingLastPathComponent().path
    return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(marker) }.sorted()
  }

  @Test(
    "A heavyweight migration killed at a named phase leaves the store intact, and the next run succeeds",
    .enabled(if: Reliability.executablesBuilt, Comment(rawValue: Reliability.executablesAbsent)),
    arguments: points)
  func killedAt(_ point: KillPoint) throws {
    let scratch = Scratch("heavyweight-kill")
    let (pristine, mappings) = try Self.prepare(in: scratch)
    let before = try Self.export(pristine)

    // The new state: what an uninterrupted migration of the same store ends at.
    let reference = try Self.copy(pristine, into: scratch, folder: "reference")
    let uninterrupted = try Self.migrate(reference, mappings: mappings)
    try #require(uninterrupted.status == 0, "\(uninterrupted.error)")
    let after = try Self.export(reference)
    #expect(after != before)

    let store = try Self.copy(pristine, into: scratch, folder: "killed")
    let trace = scratch.path("trace")
    let killed = try Self.migrate(
      store, mappings: mappings, environment: ["MODELC_KILL_AT_PHASE": point.phase, "MODELC_PHASE_TRACE": trace])
    #expect(killed.status == SIGKILL, "the migration was not killed: \(killed.output) \(killed.error)")
    let traced = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
    let last = traced.last.map { String($0.drop { $0 != " " }.dropFirst()) }
    #expect(last == point.phase, "the migration stopped at '\(last ?? "nothing")'")

    // What the kill left: an intact store that opens, at one version or the other, whole.
    #expect(try Reliability.integrity(URL(fileURLWithPath: store)) == "ok")
    let info = try ProcessRun.run(try #require(Reliability.modelc), ["store", "info", store, "--model", Self.model])
    #expect(info.status == 0, "\(info.error)")
    #expect(info.output.contains(point.migrated ? "version: Bookshelf 3" : "version: Bookshelf ("), "\(info.output)")
    #expect(try Self.export(store) == (point.migrated ? after : before))
    let working = try Self.files(besides: store, containing: ".modelc-migrating-")
    #expect(working.isEmpty != point.leavesWorkingFile, "working files left by the kill: \(working)")
    if point.migrated {
      // The backup is the original store, whole.
      let backups = try Self.files(besides: store, containing: ".modelc-backup-")
      try #require(backups.count == 1, "\(backups)")
      let backup = URL(fileURLWithPath: store).deletingLastPathComponent().appendingPathComponent(backups[0]).path
      #expect(try Self.export(backup) == before)
    }

    // The next run succeeds, ends at the new state, and removes what the killed one left.
    let next = try Self.migrate(store, mappings: mappings)
    #expect(next.status == 0, "\(next.error)")
    #expect(
      next.output.contains(point.migrated ? "is already at 'Bookshelf 3'" : "from 'Bookshelf' to 'Bookshelf 3'"),
      "\(next.output)")
    #expect(try Self.export(store) == after)
    #expect(try Self.files(besides: store, containing: ".modelc-migrating-").isEmpty)
    #expect(try Reliability.integrity(URL(fileURLWithPath: store)) == "ok")
  }

  @Test(
    "Without MODELC_KILL_AT_PHASE, or with it empty, a traced heavyweight migration runs to the end",
    .enabled(if: Reliability.executablesBuilt, Comment(rawValue: Reliability.executablesAbsent)))
  func killIsOffByDefault() throws {
    let scratch = Scratch("heavyweight-kill")
    let (store, mappings) = try Self.prepare(in: scratch)
    let trace = scratch.path("trace")
    let run = try Self.migrate(
      store, mappings: mappings, environment: ["MODELC_KILL_AT_PHASE": "", "MODELC_PHASE_TRACE": trace])
    #expect(run.status == 0, "\(run.error)")
    let phases = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map {
      String($0.drop { $0 != " " }.dropFirst())
    }
    // Every point the kill test stops at is traced, in order.
    var remaining = phases[...]
    for point in Self.points {
      guard let index = remaining.firstIndex(where: { $0.hasPrefix(point.phase) }) else {
        Issue.record("the phase '\(point.phase)' was not traced in order: \(phases)")
        return
      }
      remaining = remaining[(index + 1)...]
    }
    #expect(phases.last == "migrate: committed")
  }
}
