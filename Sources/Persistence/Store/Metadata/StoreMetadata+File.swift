import Foundation

/// Reading a store file's metadata without opening it as a container.
extension StoreMetadata {
  /// The metadata of the store at `url`, read-only: what tells which model version it is at
  /// (``matchingVersion(in:)``) before a container opens it at that version.
  public static func read(fromStoreAt url: URL) throws -> StoreMetadata {
    try StoreConnection.readMetadata(at: url)
  }
}
