import Foundation

/// Reading a store file's metadata without opening it as a container.
extension StoreMetadata {
  /// The metadata of the store at `url`, read-only: what tells which model version it is at
  /// (``matchingVersion(in:)``) before a container opens it at that version.
  ///
  /// ```swift
  /// let version = try StoreMetadata.read(fromStoreAt: storeURL).matchingVersion(in: bundle)
  /// ```
  ///
  /// - Throws: ``PersistenceError``: ``PersistenceError/storeNotFound(_:)``,
  ///   ``PersistenceError/notAStore(path:reason:)`` (a directory, an empty, truncated or
  ///   damaged file, a database without `Z_METADATA`) or
  ///   ``PersistenceError/storeInaccessible(path:reason:)``; ``StoreMetadataError`` when
  ///   `Z_PLIST` is not a property list dictionary.
  public static func read(fromStoreAt url: URL) throws -> StoreMetadata {
    try StoreConnection.readMetadata(at: url)
  }
}
