/// Reading and changing the store's metadata (`Z_METADATA`).
extension PersistentContainer {
  /// The store's metadata as it is now: Core Data's keys (version hashes, framework version…),
  /// keys apps wrote, and the store UUID.
  ///
  /// - Throws: ``PersistenceError`` or a `SQLiteError` when the store cannot be read;
  ///   ``StoreMetadataError`` when `Z_PLIST` is not a property list dictionary.
  public func storeMetadata() throws -> StoreMetadata {
    let connection = try StoreConnection.open(storeDescription)
    defer { try? connection.close() }
    return try StoreConnection.readMetadata(connection)
  }

  /// Changes the store's metadata in one transaction, as Core Data's `setMetadata(_:for:)`
  /// does: `change` gets the metadata as stored, every key it leaves alone — Core Data's own
  /// and those apps wrote — is written back unchanged.
  ///
  /// ```swift
  /// try container.updateMetadata { $0.entries["AppDataVersion"] = .integer(3) }
  /// ```
  ///
  /// - Throws: ``PersistenceError/storeFailure(_:)`` when the store is open read-only or
  ///   `change` alters the store UUID; what `change` throws; ``StoreMetadataError`` or a
  ///   `SQLiteError` when the metadata cannot be read or written. Nothing is written then.
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
