/// Reading and changing the store's metadata (`Z_METADATA`).
extension PersistentContainer {
  /// The store's metadata as it is now: Core Data's keys (version hashes, framework version…),
  /// keys apps wrote, and the store UUID.
  public func storeMetadata() throws -> StoreMetadata {
    let connection = try StoreConnection.open(storeDescription)
    defer { try? connection.close() }
    return try StoreConnection.readMetadata(connection)
  }

  /// Changes the store's metadata in one transaction, as Core Data's `setMetadata(_:for:)`
  /// does: `change` gets the metadata as stored, every key it leaves alone — Core Data's own
  /// and those apps wrote — is written back unchanged.
  public func updateMetadata(_ change: (inout StoreMetadata) throws -> Void) throws {
    guard !options.isReadOnly else {
      throw PersistenceError.storeFailure("the store is open read-only; its metadata cannot change")
    }
    let connection = try StoreConnection.open(storeDescription)
    defer { try? connection.close() }
    try connection.transaction(.immediate) {
      var metadata = try StoreConnection.readMetadata(connection)
      let uuid = metadata.storeUUID
      try change(&metadata)
      guard metadata.storeUUID == uuid else {
        throw PersistenceError.storeFailure("a store's UUID cannot change (objects' URIs are made from it)")
      }
      try StoreConnection.writeMetadata(metadata, on: connection)
    }
  }
}
