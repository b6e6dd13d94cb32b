import Foundation

/// One step of a store's migration history: when, from which version to which, and how.
public struct MigrationRecord: Sendable, Hashable {
  /// When the step committed.
  public var date: Date
  /// The version the store was at.
  public var fromVersion: String
  /// The version the step brought it to.
  public var toVersion: String
  /// The model checksum of `fromVersion`.
  public var fromChecksum: String
  /// The model checksum of `toVersion`.
  public var toChecksum: String
  /// `lightweight` (inferred) or `mapped` (from a mapping model).
  public var kind: String
  /// What ran, in a sentence (tables rebuilt, columns added…).
  public var detail: String

  public init(
    date: Date, fromVersion: String, toVersion: String, fromChecksum: String, toChecksum: String, kind: String,
    detail: String
  ) {
    self.date = date
    self.fromVersion = fromVersion
    self.toVersion = toVersion
    self.fromChecksum = fromChecksum
    self.toChecksum = toChecksum
    self.kind = kind
    self.detail = detail
  }
}

extension MigrationRecord {
  /// A step from one model version to another, with their checksums
  /// (`NSStoreModelVersionChecksumKey`).
  public init(
    date: Date = Date(), kind: String, from source: ModelVersion, to destination: ModelVersion, detail: String = ""
  ) {
    self.init(
      date: date, fromVersion: source.name, toVersion: destination.name, fromChecksum: source.versionHashes.checksum,
      toChecksum: destination.versionHashes.checksum, kind: kind, detail: detail)
  }
}
