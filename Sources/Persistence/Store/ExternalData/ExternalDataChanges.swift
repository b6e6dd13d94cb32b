import Foundation
import SQLite

/// The external-data files one write creates and the ones it makes obsolete, so that files and
/// rows stay consistent whatever happens to the transaction:
///
/// - a new value's file is written **before** the commit, so a committed row never refers to a
///   missing file;
/// - when the transaction fails or rolls back, the files it created are removed (``rolledBack()``),
///   so no file is left that no row refers to;
/// - files of replaced values and deleted objects are removed only **after** the commit
///   (``committed()``), so a failed save leaves every old reference valid.
///
/// A process killed between writing a file and committing can leave an unreferenced file; it
/// is never a dangling reference.
struct ExternalDataChanges {
  /// The store's folder; nil for stores without one (in memory), which keep every value inline.
  let folder: ExternalDataFolder?
  /// Files written by this write.
  private(set) var created: [String] = []
  /// Files that rows referred to before this write and no longer do once it commits.
  private(set) var obsolete: [String] = []

  init(folder: ExternalDataFolder?) {
    self.folder = folder
  }

  /// The column value of a Binary value of an attribute that allows external storage: a
  /// reference to a new file when the value is longer than the threshold and the store has a
  /// folder, the marked bytes otherwise.
  mutating func columnValue(for data: Data) throws -> SQLiteValue {
    guard let folder, ExternalDataReference.isExternal(byteCount: data.count) else {
      return .blob(ExternalDataReference.inline(data))
    }
    let name = try folder.write(data)
    created.append(name)
    return .blob(ExternalDataReference.reference(to: name))
  }

  /// Notes that a stored column value is being replaced or deleted: its file, if it has one,
  /// goes once the write commits.
  mutating func discard(_ stored: SQLiteValue) {
    if let name = ExternalDataReference.fileName(in: stored) { obsolete.append(name) }
  }

  /// The write committed: removes the files nothing refers to any more.
  func committed() {
    folder?.remove(obsolete)
  }

  /// The write failed: removes the files it created.
  func rolledBack() {
    folder?.remove(created)
  }
}
