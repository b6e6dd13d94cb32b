import Foundation
import SQLite

/// Converts attribute values to and from the values Core Data keeps in SQLite columns.
///
/// The encodings are Core Data's (see `docs/store-format.md`): integers and Booleans as
/// INTEGER, Double and Float as REAL, dates as REAL seconds since 2001-01-01, strings as TEXT,
/// UUIDs as 16-byte BLOBs, URIs as TEXT (their absolute string), binary and transformable data as
/// BLOBs (Core Data's `0x01` prefix marks inline data of attributes that allow external
/// storage). Decimals are REAL when a `Double` holds them exactly; longer ones are kept as a BLOB
/// of their decimal text, because SQLite's NUMERIC affinity would round text to 15 digits.
public enum StoredValueCodec {
  /// What the codec needs to know of an attribute: small enough to copy for every value.
  public struct Kind: Sendable, Hashable {
    /// The attribute's name, for error messages.
    public var name: String
    /// The attribute's type.
    public var type: AttributeType
    /// Whether the attribute allows external binary storage (values carry Core Data's prefix).
    public var allowsExternalStorage: Bool

    public init(_ attribute: AttributeDescription) {
      self.name = attribute.name
      self.type = attribute.attributeType
      self.allowsExternalStorage = attribute.allowsExternalBinaryDataStorage
    }

    /// Whether a BLOB of this attribute is its value as is: Binary and Transformable data
    /// without external storage. With external storage allowed — Transformable included, as
    /// Xcode offers it for both — the first byte is Core Data's marker (`0x01` inline, `0x02` a
    /// file) and the value must go through ``StoredValueCodec/decode(_:kind:externalDataDirectory:)``.
    /// The one rule every reader (fetched objects, dictionaries, exports) follows.
    public var storesBytesAsIs: Bool {
      (type == .binary || type == .transformable) && !allowsExternalStorage
    }
  }

  /// The column value for an attribute value (nil is NULL).
  public static func encode(_ value: AttributeValue?, for attribute: AttributeDescription) -> SQLiteValue {
    encode(value, kind: Kind(attribute))
  }

  /// The attribute value of a column value.
  ///
  /// - Throws: ``StoredValueError`` (typed), as ``decode(_:kind:externalDataDirectory:)`` does.
  public static func decode(
    _ stored: SQLiteValue, for attribute: AttributeDescription, externalDataDirectory: URL? = nil
  ) throws(StoredValueError) -> AttributeValue? {
    try decode(stored, kind: Kind(attribute), externalDataDirectory: externalDataDirectory)
  }

  /// The column value for an attribute value (nil is NULL).
  public static func encode(_ value: AttributeValue?, kind: Kind) -> SQLiteValue {
    guard let value else { return .null }
    switch value {
    case .integer(let integer): return .integer(integer)
    case .boolean(let flag): return .integer(flag ? 1 : 0)
    case .double(let double): return .real(double)
    case .float(let float): return .real(Double(float))
    case .string(let string): return .text(string)
    case .date(let date): return .real(date.timeIntervalSinceReferenceDate)
    case .uuid(let uuid):
      let bytes = uuid.uuid
      return .blob([
        bytes.0, bytes.1, bytes.2, bytes.3, bytes.4, bytes.5, bytes.6, bytes.7, bytes.8, bytes.9, bytes.10, bytes.11,
        bytes.12, bytes.13, bytes.14, bytes.15,
      ])
    case .uri(let url): return .text(url.absoluteString)
    case .decimal(let decimal):
      let double = NSDecimalNumber(decimal: decimal).doubleValue
      if double.isFinite, Decimal(string: "\(double)", locale: Locale(identifier: "en_US_POSIX")) == decimal {
        return .real(double)
      }
      return .blob(Array(decimal.description.utf8))
    case .binary(let data):
      if kind.allowsExternalStorage {
        return .blob([0x01] + [UInt8](data))
      }
      return .blob([UInt8](data))
    }
  }

  /// Binds the column value for an attribute value (``encode(_:kind:)``) to the next parameter
  /// of `row`: a UUID's bytes straight from the value, where encoding it makes an array for
  /// every row written.
  public static func bind(_ value: AttributeValue?, kind: Kind, to row: inout SQLiteParameterCursor) throws {
    if case .uuid(let uuid)? = value {
      try withUnsafeBytes(of: uuid.uuid) { try row.bind(bytes: $0) }
    } else {
      try row.bind(encode(value, kind: kind))
    }
  }

  /// The attribute value of a column value; throws when the stored value cannot be an
  /// attribute of this type (a corrupt or foreign store).
  ///
  /// `externalDataDirectory` is the store's `.<name>_SUPPORT/_EXTERNAL_DATA` folder, where Core
  /// Data keeps large binary values of attributes that allow external storage (the column then
  /// holds `0x02` and the file's name).
  ///
  /// - Throws: ``StoredValueError`` (typed) naming the attribute, its type and the stored value:
  ///   a value of a storage class the type cannot have (text that is not a number, a BLOB for a
  ///   date), or an external-data reference whose file is missing from `_EXTERNAL_DATA`.
  public static func decode(
    _ stored: SQLiteValue, kind: Kind, externalDataDirectory: URL? = nil
  ) throws(StoredValueError) -> AttributeValue? {
    if case .null = stored { return nil }
    func mismatch(_ detail: String) -> StoredValueError {
      StoredValueError(attribute: kind.name, type: kind.type, stored: stored, detail: detail)
    }
    switch kind.type {
    case .integer16, .integer32, .integer64:
      switch stored {
      case .integer(let integer): return .integer(integer)
      case .real(let double) where double == double.rounded() && abs(double) < 9.2e18: return .integer(Int64(double))
      case .text(let text):
        guard let integer = Int64(text) else { throw mismatch("text that is not a whole number") }
        return .integer(integer)
      default: throw mismatch("expected an integer")
      }
    case .boolean:
      switch stored {
      case .integer(let integer): return .boolean(integer != 0)
      case .real(let double): return .boolean(double != 0)
      default: throw mismatch("expected 0 or 1")
      }
    case .double:
      guard let double = stored.doubleValue else { throw mismatch("expected a number") }
      return .double(double)
    case .float:
      guard let double = stored.doubleValue else { throw mismatch("expected a number") }
      return .float(Float(double))
    case .date:
      guard let seconds = stored.doubleValue else { throw mismatch("expected seconds since 2001-01-01") }
      return .date(Date(timeIntervalSinceReferenceDate: seconds))
    case .string:
      switch stored {
      case .text(let text): return .string(text)
      case .integer(let integer): return .string(String(integer))
      case .real(let double): return .string(String(double))
      case .blob(let bytes):
        guard let text = String(validating: bytes, as: UTF8.self) else {
          throw mismatch("a BLOB that is not UTF-8 text")
        }
        return .string(text)
      case .null: return nil
      }
    case .decimal:
      switch stored {
      case .integer(let integer): return .decimal(Decimal(integer))
      case .real(let double):
        return .decimal(Decimal(string: "\(double)", locale: Locale(identifier: "en_US_POSIX")) ?? Decimal(double))
      case .text(let text):
        guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
          throw mismatch("text that is not a decimal number")
        }
        return .decimal(decimal)
      case .blob(let bytes):
        guard let text = String(validating: bytes, as: UTF8.self),
          let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        else { throw mismatch("a BLOB that is not a decimal number") }
        return .decimal(decimal)
      case .null: return nil
      }
    case .uuid:
      switch stored {
      case .blob(let bytes) where bytes.count == 16:
        return .uuid(
          UUID(
            uuid: (
              bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
              bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )))
      case .text(let text):
        guard let uuid = UUID(uuidString: text) else { throw mismatch("text that is not a UUID") }
        return .uuid(uuid)
      default: throw mismatch("expected a 16-byte BLOB")
      }
    case .uri:
      switch stored {
      case .text(let text):
        guard let url = URL(string: text) else { throw mismatch("text that is not a URI") }
        return .uri(url)
      case .blob(let bytes):
        guard let text = String(validating: bytes, as: UTF8.self), let url = URL(string: text) else {
          throw mismatch("a BLOB that is not a URI")
        }
        return .uri(url)
      default: throw mismatch("expected a URI")
      }
    case .binary, .transformable, .composite, .objectID, .undefined:
      switch stored {
      case .blob(let bytes):
        if kind.allowsExternalStorage, let first = bytes.first {
          if first == 0x01 { return .binary(Data(bytes.dropFirst())) }
          if first == 0x02 {
            let name = String(decoding: bytes.dropFirst().filter { $0 != 0 }, as: UTF8.self)
            guard let directory = externalDataDirectory,
              let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path)
            else {
              throw mismatch("the value is kept in the external file '\(name)', which is missing from _EXTERNAL_DATA")
            }
            return .binary(data)
          }
        }
        return .binary(Data(bytes))
      case .text(let text): return .binary(Data(text.utf8))
      default: throw mismatch("expected a BLOB")
      }
    }
  }
}

/// A stored value that cannot belong to its attribute.
public struct StoredValueError: Error, Sendable, Hashable, CustomStringConvertible {
  public var attribute: String
  public var type: AttributeType
  public var stored: SQLiteValue
  public var detail: String

  public var description: String {
    "the stored value of attribute '\(attribute)' (\(type.rawValue)) is unreadable: \(detail)"
  }
}
