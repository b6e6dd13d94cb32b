import Foundation

/// Turns the values of a Transformable attribute into the bytes the store keeps and back: the
/// portable counterpart of Foundation's `ValueTransformer` for generated entity code.
///
/// Generated code stores an attribute whose `customClassName` is a standard Codable type
/// (`[String]`, `[String: Int]`, `Set<UUID>`…) as JSON by itself. For any other type, name a
/// transformer in the attribute's user info under the key `modelc.transformer` (Xcode's Data
/// Model inspector, "User Info"), and write it in the module that holds the generated code:
///
/// ```swift
/// enum ColorTransformer: AttributeTransformer {
///   static func encode(_ value: Color) throws -> Data { try JSONEncoder().encode(value) }
///   static func decode(_ data: Data) throws -> Color { try JSONDecoder().decode(Color.self, from: data) }
///   static var defaultValue: Color { .black }
/// }
/// ```
///
/// The generated property then has the transformer's `Value` type. Without a transformer, a
/// Transformable attribute is exposed as its stored `Data`.
public protocol AttributeTransformer {
  /// The type of the attribute's values.
  associatedtype Value

  /// The bytes to store for a value. A failure traps in the property setter, the way Core
  /// Data raises when a transformer cannot encode a value.
  static func encode(_ value: Value) throws -> Data

  /// The value stored bytes stand for. A failure reads as nil (or ``defaultValue``).
  static func decode(_ data: Data) throws -> Value

  /// What a non-optional property returns when nothing is stored or the bytes do not decode.
  static var defaultValue: Value { get }
}
