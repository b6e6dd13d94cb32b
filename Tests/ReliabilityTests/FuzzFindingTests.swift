import Foundation
import SQLite
import TestSupport
import Testing

/// Inputs the fuzz targets found that `modelc` did not answer with a clear error, kept as
/// regression tests of their fixes (docs/reliability.md, "What the campaigns found").
@Suite("Fuzz findings")
struct FuzzFindingTests {
  /// `Tests/Fixtures/fuzz/store-row-of-another-entity.sqlite`, found by the `StoreFile` target
  /// after 603,399 inputs: a Tasks store whose task row 3 (in `ZTASK`) has `Z_ENT` 3, the number
  /// of `Tag`, an entity stored in `ZTAG`. Reading the row as a `Tag` gives it the identity of the
  /// real tag 3, and `store export` stopped on a precondition failure ("attribute slot out of
  /// range") instead of refusing the row. `StoredRowCursor.readIdentity` now refuses a `Z_ENT`
  /// of an entity stored in another table, as it refuses a number that is no entity.
  @Test(
    "A row whose Z_ENT names an entity of another table is refused, not read",
    .enabled(if: Reliability.executablesBuilt, Comment(rawValue: Reliability.executablesAbsent)))
  func rowOfAnotherEntity() throws {
    let scratch = Scratch("fuzz-finding")
    let store = scratch.file("Tasks.sqlite")
    try FileManager.default.copyItem(
      at: TestPaths.fixtures.appendingPathComponent("fuzz/store-row-of-another-entity.sqlite"), to: store)
    let connection = try SQLiteConnection(.file(store.path), mode: .readOnly)
    let entity = try connection.firstRow("SELECT Z_ENT FROM ZTASK WHERE Z_PK = 3") { $0.int64(at: 0) }
    let tag = try connection.firstRow("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Tag'") { $0.int64(at: 0) }
    try connection.close()
    #expect(entity != nil && entity == tag, "the fixture's task row 3 no longer names Tag")

    let export = try Reliability.run(
      Reliability.modelc!, ["store", "export", store.path, "--model", Reliability.tasksModel, "--format", "json"])
    let message = String(export.error.prefix(300))
    #expect(export.status == 1, "\(message)")
    #expect(export.error.contains("ZTASK") && export.error.contains("Tag"), "\(message)")
  }
}
