import DataModel
import Foundation

/// The Swift type of an attribute's property and how the property stores it.
///
/// - Each storable type has its standard counterpart: `Int16`, `Int32`, `Int64`, `Decimal`,
///   `Double`, `Float`, `String`, `Bool`, `Date`, `Data` (Binary), `UUID`, `URL` (URI).
/// - The property is optional exactly when the attribute is, scalars included (an optional
///   `Integer 16` is `Int16?`). A required property reads the type's zero value when the object
///   holds no value (``AttributeValueRepresentable/zeroValue``), never trapping.
/// - Transformable: the user's ``AttributeTransformer`` named in the user info under
///   `modelc.transformer` (the property has its `Value` type); else the `customClassName` when it
///   spells a standard Codable type (stored as JSON); else the stored `Data`, with a warning
///   when a `customClassName` was given.
/// - Undefined and ObjectID (transient, in-memory only) and Composite: the stored
///   ``AttributeValue`` itself, always optional, since there is no Swift type to convert to.
enum AttributeTyping {
  /// The user-info key that names an attribute's transformer.
  static let transformerKey = "modelc.transformer"

  /// The property's type (`?` included) and storage, and a warning when the attribute could
  /// not get the type its model asks for.
  static func typing(of attribute: AttributeDescription, in entity: String) -> (
    swiftType: String, storage: AttributePlan.Storage, warning: Diagnostic?
  ) {
    let optional = attribute.isOptional ? "?" : ""
    let scalar: String? =
      switch attribute.attributeType {
      case .integer16: "Swift.Int16"
      case .integer32: "Swift.Int32"
      case .integer64: "Swift.Int64"
      case .decimal: "Foundation.Decimal"
      case .double: "Swift.Double"
      case .float: "Swift.Float"
      case .string: "Swift.String"
      case .boolean: "Swift.Bool"
      case .date: "Foundation.Date"
      case .binary: "Foundation.Data"
      case .uuid: "Foundation.UUID"
      case .uri: "Foundation.URL"
      case .transformable, .undefined, .objectID, .composite: nil
      }
    if let scalar {
      return (scalar + optional, .value(optional: attribute.isOptional), nil)
    }
    switch attribute.attributeType {
    case .transformable:
      if let transformer = attribute.userInfo[transformerKey]?.trimmingCharacters(in: .whitespaces),
        !transformer.isEmpty
      {
        return ("\(transformer).Value\(optional)", .transformer(name: transformer, optional: attribute.isOptional), nil)
      }
      let className = attribute.customClassName?.trimmingCharacters(in: .whitespaces) ?? ""
      if let codable = CodableTypeSpelling(className) {
        return (
          codable.swiftType + optional,
          .codable(type: codable.swiftType, zero: attribute.isOptional ? nil : codable.zeroValue), nil
        )
      }
      let warning: Diagnostic? =
        className.isEmpty
        ? nil
        : .warning(
          "codegen-transformable-as-data",
          "Transformable attribute '\(attribute.name)' of entity '\(entity)' is exposed as Data: '\(className)' is not a standard Codable type",
          at: attribute.location, entity: entity, property: attribute.name,
          fix:
            "to get a typed property, write an AttributeTransformer whose Value is \(className) and name it in the attribute's user info under '\(transformerKey)'"
        )
      return ("Foundation.Data" + optional, .value(optional: attribute.isOptional), warning)
    case .composite:
      return (
        "DataModel.AttributeValue?", .raw,
        .warning(
          "codegen-untyped-attribute",
          "Composite attribute '\(attribute.name)' of entity '\(entity)' is exposed as its stored AttributeValue: composite members get no typed properties yet",
          at: attribute.location, entity: entity, property: attribute.name,
          fix: "read and write it through the property's AttributeValue, or use separate attributes")
      )
    default:
      return ("DataModel.AttributeValue?", .raw, nil)
    }
  }
}
