import Foundation

/// A store's metadata: the property list in `Z_METADATA.Z_PLIST` plus the store's UUID
/// (`Z_METADATA.Z_UUID`).
///
/// Core Data identifies a store's model version only through the hashes kept here. modelc
/// writes the keys Core Data writes (see `docs/store-format.md`) and keeps every other key —
/// Core Data's own bookkeeping and keys apps add — exactly as it found them.
public struct StoreMetadata: Sendable, Hashable {
  /// `NSStoreModelVersionHashes`.
  public static let versionHashesKey = "NSStoreModelVersionHashes"
  /// `NSStoreModelVersionHashesDigest`.
  public static let versionHashesDigestKey = "NSStoreModelVersionHashesDigest"
  /// `NSStoreModelVersionChecksumKey`.
  public static let versionChecksumKey = "NSStoreModelVersionChecksumKey"
  /// `NSStoreModelVersionHashesVersion`.
  public static let versionHashesVersionKey = "NSStoreModelVersionHashesVersion"
  /// `NSStoreModelVersionIdentifiers`.
  public static let versionIdentifiersKey = "NSStoreModelVersionIdentifiers"
  /// `NSPersistenceFrameworkVersion`.
  public static let frameworkVersionKey = "NSPersistenceFrameworkVersion"
  /// `NSStoreType`.
  public static let storeTypeKey = "NSStoreType"
  /// `_NSAutoVacuumLevel`.
  public static let autoVacuumLevelKey = "_NSAutoVacuumLevel"

  /// The Core Data framework version modelc writes into stores it creates: the newest seen in
  /// real stores (1333, iOS 17 era), which also writes the model checksum key.
  public static let frameworkVersion: Int64 = 1333

  /// The store's UUID (`Z_UUID`).
  public var storeUUID: String
  /// Every key of the property list.
  public var entries: [String: PropertyListValue]

  public init(storeUUID: String, entries: [String: PropertyListValue]) {
    self.storeUUID = storeUUID
    self.entries = entries
  }

  /// Fresh metadata for a new store of a model version, with the keys Core Data writes.
  public init(model: ModelVersion, storeUUID: String = UUID().uuidString) {
    self.storeUUID = storeUUID
    self.entries = [
      Self.storeTypeKey: .string("SQLite"),
      Self.frameworkVersionKey: .integer(Self.frameworkVersion),
      Self.versionHashesVersionKey: .integer(3),
      Self.autoVacuumLevelKey: .string("2"),
    ]
    setModel(model)
  }

  /// Reads the property list stored in `Z_PLIST`.
  ///
  /// A binary property list (what Core Data writes) is read by ``BinaryPropertyList``, which
  /// checks every offset and reference against the data: no Foundation bridging (on Linux,
  /// `PropertyListSerialization` crashed on some damaged binary lists holding a set, found by
  /// the `MetadataPlist` fuzz target), and no dynamic cast per value, which made reading the
  /// metadata most of what opening a store costs beyond SQLite's own open. Other formats (XML,
  /// which tools may write) are read by `PropertyListSerialization`.
  ///
  /// - Throws: ``StoreMetadataError`` (typed) when the data is not a property list, or not a
  ///   dictionary with string keys and values metadata can hold (no sets, object references or
  ///   nulls, which Core Data never writes there).
  public init(storeUUID: String, propertyList data: Data) throws(StoreMetadataError) {
    let value: PropertyListValue
    if data.starts(with: Self.binaryPrefix) {
      do {
        value = try PropertyListValue(binary: try BinaryPropertyList.decode(data))
      } catch {
        throw StoreMetadataError(message: "the store's metadata (Z_METADATA.Z_PLIST) is not a property list: \(error)")
      }
    } else {
      let object: Any
      do {
        object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
      } catch {
        throw StoreMetadataError(message: "the store's metadata (Z_METADATA.Z_PLIST) is not a property list: \(error)")
      }
      guard let converted = PropertyListValue(foundationValue: object) else {
        throw StoreMetadataError(
          message:
            "the store's metadata (Z_METADATA.Z_PLIST) holds a value store metadata cannot hold (only strings, numbers, booleans, dates, data, arrays and dictionaries)"
        )
      }
      value = converted
    }
    guard case .dictionary(let entries) = value else {
      throw StoreMetadataError(message: "the store's metadata (Z_METADATA.Z_PLIST) is not a dictionary")
    }
    self.storeUUID = storeUUID
    self.entries = entries
  }

  /// How every binary property list starts (`bplist`, then the format's version).
  private static let binaryPrefix = Array("bplist".utf8)

  /// The property list to store in `Z_PLIST`, in Core Data's binary format (`bplist00`), its
  /// keys sorted: the same metadata gives the same bytes.
  ///
  /// Written by ``BinaryPropertyList``, not `PropertyListSerialization`: with Foundation linked
  /// statically (release builds of `task`), bridging the entries to Foundation's objects failed
  /// ("property lists cannot contain objects of type 'Not A Type'"), so a new store could not
  /// be created.
  ///
  /// - Throws: Nothing since then — every entry can be encoded. The signature keeps its typed
  ///   ``StoreMetadataError`` so that callers written against it do not change.
  public func propertyListData() throws(StoreMetadataError) -> Data {
    BinaryPropertyList.encode(PropertyListValue.dictionary(entries).binaryValue)
  }

  /// Records a model version's hashes, digest, checksum and identifiers, leaving every other
  /// key alone.
  public mutating func setModel(_ model: ModelVersion) {
    let hashes = model.versionHashes
    entries[Self.versionHashesKey] = .dictionary(hashes.entityHashes.mapValues { .data($0) })
    entries[Self.versionHashesDigestKey] = .string(hashes.digest)
    entries[Self.versionChecksumKey] = .string(hashes.checksum)
    entries[Self.versionIdentifiersKey] = .array([.string(model.versionIdentifier ?? "")])
    if entries[Self.versionHashesVersionKey] == nil { entries[Self.versionHashesVersionKey] = .integer(3) }
  }

  /// The entity hashes (`NSStoreModelVersionHashes`), by entity name.
  public var entityHashes: [String: Data] {
    guard case .dictionary(let values)? = entries[Self.versionHashesKey] else { return [:] }
    var result: [String: Data] = [:]
    for (name, value) in values {
      if case .data(let data) = value { result[name] = data }
    }
    return result
  }

  /// The Core Data framework version that wrote the store, when recorded.
  public var writtenByFrameworkVersion: Int64? {
    entries[Self.frameworkVersionKey]?.integerValue
  }

  /// Whether the store was written for this model version: its entity hashes are exactly the
  /// version's, as Core Data's compatibility check requires.
  public func isCompatible(with model: ModelVersion) -> Bool {
    entityHashes == model.versionHashes.entityHashes
  }

  /// The version of the bundle whose hashes match the store's, if any.
  public func matchingVersion(in bundle: ModelBundle) -> ModelVersion? {
    let stored = entityHashes
    return bundle.versions.last { $0.versionHashes.entityHashes == stored }
  }
}

/// Metadata that cannot be read or written.
public struct StoreMetadataError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String

  public init(message: String) {
    self.message = message
  }

  public var description: String { message }
}
