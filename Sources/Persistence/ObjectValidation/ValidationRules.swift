/// The rules of one entity as the validator checks them, built once per entity layout.
///
/// Checking a save of many objects reads these instead of the model's attribute and
/// relationship descriptions, which are large values to copy once per property per object.
/// The rules of a property are shared instances for the same reason: visiting one costs a
/// reference, not a copy of its strings.
struct ValidationRules: Sendable {
  /// The rules of one stored attribute.
  final class Attribute: Sendable {
    let slot: Int
    let name: String
    let type: AttributeType
    let isOptional: Bool
    /// `minValue` and `maxValue` as numbers (a length for strings and Binary data).
    let minimum: Double?
    let maximum: Double?
    /// `minValue` and `maxValue` as written in messages.
    let minimumText: String
    let maximumText: String
    /// The regular expression, when the attribute is a String with one.
    let pattern: String?

    init(
      slot: Int, name: String, type: AttributeType, isOptional: Bool, minimum: Double?, maximum: Double?,
      minimumText: String, maximumText: String, pattern: String?
    ) {
      self.slot = slot
      self.name = name
      self.type = type
      self.isOptional = isOptional
      self.minimum = minimum
      self.maximum = maximum
      self.minimumText = minimumText
      self.maximumText = maximumText
      self.pattern = pattern
    }
  }

  /// The count rules of one stored relationship.
  final class Relationship: Sendable {
    let slot: Int
    let name: String
    let isToMany: Bool
    let isOptional: Bool
    let minCount: Int
    let maxCount: Int

    init(slot: Int, name: String, isToMany: Bool, isOptional: Bool, minCount: Int, maxCount: Int) {
      self.slot = slot
      self.name = name
      self.isToMany = isToMany
      self.isOptional = isOptional
      self.minCount = minCount
      self.maxCount = maxCount
    }
  }

  let attributes: [Attribute]
  let relationships: [Relationship]

  init(attributes: [AttributeDescription], relationships: [ObjectLayout.RelationshipSlot]) {
    self.attributes = attributes.indices.compactMap { slot in
      let attribute = attributes[slot]
      // A composite attribute's own slot holds no value: its leaves have rules of their own.
      guard !attribute.isTransient, attribute.attributeType != .composite else { return nil }
      let pattern = attribute.regularExpression.flatMap { $0.isEmpty || attribute.attributeType != .string ? nil : $0 }
      return Attribute(
        slot: slot, name: attribute.name, type: attribute.attributeType, isOptional: attribute.isOptional,
        minimum: attribute.minValue?.numericValue, maximum: attribute.maxValue?.numericValue,
        minimumText: attribute.minValue.map { "\($0)" } ?? "", maximumText: attribute.maxValue.map { "\($0)" } ?? "",
        pattern: pattern)
    }
    self.relationships = relationships.indices.compactMap { slot in
      let relationship = relationships[slot].relationship
      guard !relationship.isTransient else { return nil }
      return Relationship(
        slot: slot, name: relationship.name, isToMany: relationship.isToMany, isOptional: relationship.isOptional,
        minCount: relationship.minCount, maxCount: relationship.maxCount)
    }
  }
}
