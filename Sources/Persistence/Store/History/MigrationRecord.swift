import Foundation

/// One step of a store's migration history, as modelc keeps it in its own table
/// (``MigrationHistory``).
public struct MigrationRecord: Sendable, Hashable {
  /// The row's number, in the order steps ran; nil before the record is stored.
  public var id: Int64?
  /// When the step ran.
  public var date: Date
  /// What ran: `lightweight` (inferred), `mapping` (a mapping model), or another word the
  /// migration engine chooses.
  public var kind: String
  /// The model version the store was at.
  public var fromVersion: String
  /// The model version the step brought it to.
  public var toVersion: String
  /// The source version's checksum (`NSStoreModelVersionChecksumKey`).
  public var fromChecksum: String
  /// The destination version's checksum.
  public var toChecksum: String
  /// Free text: what the step did (changes, rows, time).
  public var detail: String

  /// A record with every field given.
  public init(
    id: Int64? = nil, date: Date = Date(), kind: String, fromVersion: String, toVersion: String, fromChecksum: String,
    toChecksum: String, detail: String = ""
  ) {
    self.id = id
    self.date = date
    self.kind = kind
    self.fromVersion = fromVersion
    self.toVersion = toVersion
    self.fromChecksum = fromChecksum
    self.toChecksum = toChecksum
    self.detail = detail
  }

  /// A step from one model version to another, with their checksums.
  public init(
    date: Date = Date(), kind: String, from source: ModelVersion, to destination: ModelVersion, detail: String = ""
  ) {
    self.init(
      date: date, kind: kind, fromVersion: source.name, toVersion: destination.name,
      fromChecksum: source.versionHashes.checksum, toChecksum: destination.versionHashes.checksum, detail: detail)
  }
}
