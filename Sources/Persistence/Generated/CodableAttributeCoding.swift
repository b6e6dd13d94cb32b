import Foundation

/// How generated code stores a Codable value of a Transformable attribute: as JSON with sorted
/// keys (so equal values give equal bytes) and dates as seconds since 1970.
///
/// JSON is this runtime's choice. Core Data on Apple platforms archives such values with
/// `NSSecureUnarchiveFromData`, which is not read here: such bytes read as nil, and stay in the
/// store untouched until the property is written.
enum CodableAttributeCoding {
  static func encode<Value: Encodable>(_ value: Value) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .secondsSince1970
    return try encoder.encode(value)
  }

  static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    return try decoder.decode(type, from: data)
  }
}
