import DataModel

/// How Core Data writes an attribute's value into its column — the contract the object context,
/// the query compiler and migrations share when they read or bind values.
///
/// See `docs/store-format.md` (“Value encodings”) for the evidence behind each case.
public enum ValueEncoding: String, Sendable, Hashable, CaseIterable {
  /// `Integer 16/32/64`: an SQLite integer.
  case integer
  /// `Boolean`: the integer 0 or 1.
  case boolean
  /// `Double` and `Float`: an SQLite REAL.
  case real
  /// `Date`: a REAL, seconds since 2001-01-01 00:00:00 UTC (add 978307200 for Unix time).
  case timestamp
  /// `Decimal`: a number in a `DECIMAL` (NUMERIC affinity) column. How Core Data binds
  /// `NSDecimalNumber` is not confirmed by a real store [unverified].
  case decimal
  /// `String`: UTF-8 text.
  case text
  /// `URI`: the URL's absolute string as text [unverified: no real store holds a URI attribute].
  case uri
  /// `UUID`: the 16 raw bytes as a BLOB (LoopKit's `ZUUID`).
  case uuid
  /// `Binary` without external storage: the bytes as a BLOB.
  case binary
  /// `Binary` that allows external storage: a BLOB whose first byte is 0x01 followed by the bytes
  /// inline, or 0x02 followed by the UUID text of a file in `.<store>_SUPPORT/_EXTERNAL_DATA`
  /// [unverified: described by public importers, not seen in a corpus store].
  case externalBinary
  /// `Transformable`: the value transformer's output as a BLOB.
  case transformable

  /// The encoding of an attribute, or nil when it has no column.
  public init?(attribute: AttributeDescription) {
    switch attribute.attributeType {
    case .integer16, .integer32, .integer64: self = .integer
    case .boolean: self = .boolean
    case .double, .float: self = .real
    case .date: self = .timestamp
    case .decimal: self = .decimal
    case .string: self = .text
    case .uri: self = .uri
    case .uuid: self = .uuid
    case .binary: self = attribute.allowsExternalBinaryDataStorage ? .externalBinary : .binary
    case .transformable: self = .transformable
    case .undefined, .objectID, .composite: return nil
    }
  }
}
