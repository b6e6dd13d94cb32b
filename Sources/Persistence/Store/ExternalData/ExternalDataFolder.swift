import Foundation

/// The folder where a store keeps the values of Binary attributes that allow external storage:
/// `.<store name>_SUPPORT/_EXTERNAL_DATA/` beside the store file (`Foo.sqlite` →
/// `.Foo_SUPPORT/_EXTERNAL_DATA/`), one file per value, named by an uppercase UUID, holding the
/// raw bytes.
///
/// The folder belongs to the store: whatever copies or moves a store file (a backup, a
/// migration that writes a new file and swaps it in) must carry the folder along with
/// ``copy(fromStoreAt:toStoreAt:)``, or the copy's references dangle.
public struct ExternalDataFolder: Sendable, Hashable {
  /// The `_EXTERNAL_DATA` folder.
  public let url: URL

  /// The folder of the store at `storeURL` (which need not exist yet).
  public init(storeAt storeURL: URL) {
    let name = storeURL.deletingPathExtension().lastPathComponent
    self.url = storeURL.deletingLastPathComponent()
      .appendingPathComponent(".\(name)_SUPPORT", isDirectory: true)
      .appendingPathComponent("_EXTERNAL_DATA", isDirectory: true)
  }

  /// The folder at `url` itself.
  init(url: URL) {
    self.url = url
  }

  /// The `.<store name>_SUPPORT` folder that holds `_EXTERNAL_DATA`.
  public var supportURL: URL { url.deletingLastPathComponent() }

  /// The file of a value.
  public func fileURL(named name: String) -> URL {
    url.appendingPathComponent(name, isDirectory: false)
  }

  /// The names of the files in the folder, sorted (none when it does not exist).
  public func fileNames() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return names.filter { !$0.hasPrefix(".") }.sorted()
  }

  /// Writes a value to a new file and returns its name. The bytes are written to a temporary
  /// file first and renamed, so a file with a value's name always holds the whole value.
  func write(_ data: Data) throws -> String {
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    let name = UUID().uuidString
    let file = fileURL(named: name)
    do {
      try data.write(to: file, options: .atomic)
    } catch {
      throw PersistenceError.storeFailure(
        "cannot write the externally stored value \(file.path): \(error.localizedDescription); check that the folder is writable and the disk has room"
      )
    }
    return name
  }

  /// Removes the files of these names; a file already gone is no error.
  func remove(_ names: some Sequence<String>) {
    for name in names {
      try? FileManager.default.removeItem(at: fileURL(named: name))
    }
  }

  /// Copies the external data of the store at `source` to the store at `destination`: every
  /// file of the source's folder into the destination's (created when needed), replacing files
  /// of the same name. Nothing happens when the source has no folder.
  ///
  /// Call it wherever a store file is copied to a new path — a backup, a migration writing a new
  /// store — after the copy of the SQLite file and before the copy is used.
  ///
  /// - Throws: ``PersistenceError/storeFailure(_:)`` naming both paths when the folder cannot be
  ///   created or a file cannot be copied.
  public static func copy(fromStoreAt source: URL, toStoreAt destination: URL) throws {
    let from = ExternalDataFolder(storeAt: source)
    let to = ExternalDataFolder(storeAt: destination)
    guard from.url.standardizedFileURL != to.url.standardizedFileURL else { return }
    let names = from.fileNames()
    guard !names.isEmpty else { return }
    let manager = FileManager.default
    do {
      try manager.createDirectory(at: to.url, withIntermediateDirectories: true)
      for name in names {
        let target = to.fileURL(named: name)
        if manager.fileExists(atPath: target.path) { try manager.removeItem(at: target) }
        try manager.copyItem(at: from.fileURL(named: name), to: target)
      }
    } catch {
      throw PersistenceError.storeFailure(
        "cannot copy the external data of \(source.path) to \(to.url.path): \(error.localizedDescription)")
    }
  }

  /// Removes the `.<store name>_SUPPORT` folder of the store at `storeURL`, as destroying a
  /// store must (nothing happens when there is none).
  ///
  /// - Throws: The file system's error (a `CocoaError`) when the folder cannot be removed.
  public static func remove(forStoreAt storeURL: URL) throws {
    let support = ExternalDataFolder(storeAt: storeURL).supportURL
    guard FileManager.default.fileExists(atPath: support.path) else { return }
    try FileManager.default.removeItem(at: support)
  }
}
