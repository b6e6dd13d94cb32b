import Foundation

/// The rules of one entity as the validator checks them, built once per entity layout.
///
/// Checking a save of many objects reads these instead of the model's attribute and
/// relationship descriptions, which are large values to copy once per property per object.
/// The rules of a property are shared instances for the same reason: visiting one costs a
/// reference, not a copy of its strings.
struct ValidationRules: Sendable {
  /// The rules of one stored attribute: its plain-value check, and what messages name.
  final class Attribute: Sendable {
    /// Slot, type, optionality and bounds (`minValue` and `maxValue` as numbers: a length for
    /// strings and Binary data).
    let check: AttributeCheck
    let name: String
    /// `minValue` and `maxValue` as written in messages.
    let minimumText: String
    let maximumText: String
    /// The regular expression, when the attribute is a String with one.
    let pattern: String?

    var slot: Int { check.slot }
    var type: AttributeType { check.type }
    var isOptional: Bool { check.isOptional }
    var minimum: Double? { check.minimum }
    var maximum: Double? { check.maximum }

    init(check: AttributeCheck, name: String, minimumText: String, maximumText: String, pattern: String?) {
      self.check = check
      self.name = name
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

  /// What an attribute's rules need checked, as plain values (see ``attributeChecks``).
  struct AttributeCheck: Sendable {
    let slot: Int
    let type: AttributeType
    let isOptional: Bool
    /// The bounds (values, or lengths of strings and data), as in ``Attribute``.
    let minimum: Double?
    let maximum: Double?
    /// Whether the attribute has a pattern.
    let hasPattern: Bool

    /// Whether `value` certainly passes every rule of the attribute; false leaves it to the full
    /// check (``ObjectValidator``), which is the authority and names what fails. Covers the
    /// common cases — a value of the attribute's type within its bounds, an optional nil —
    /// and answers false for the rest (patterns, decimals, data with bounds…).
    ///
    /// Batch requests check their values this way; a save reads the values where they are
    /// stored (``certainlyPasses(tag:payload:)``).
    @inline(__always)
    func certainlyPasses(_ value: AttributeValue?) -> Bool {
      switch value {
      case nil: return isOptional
      case .string(let string)?: return passes(stringOfLength: string.utf16.count)
      case .integer(let integer)?: return passes(integer)
      case .double(let double)?: return passes(double)
      case .float(let float)?: return passes(float)
      case .boolean(let boolean)?: return passes(boolean)
      case .date(let date)?: return passes(date)
      case .uuid?: return type == .uuid
      case .binary?: return type == .binary && minimum == nil && maximum == nil
      case .decimal?, .uri?: return false
      }
    }

    /// ``certainlyPasses(_:)`` of the value in a slot, read where it is stored (its tag and
    /// payload, ``AttributeValues/cell(at:of:)``) without making an ``AttributeValue`` of it:
    /// a save validates every attribute of every object it writes, and making each value and
    /// destroying it again (a string retained and released) was most of what validating cost.
    /// Answers as ``certainlyPasses(_:)`` does for the value, except for a boxed value (one
    /// stored out of its slot's place), which it leaves to the full check.
    @inline(__always)
    func certainlyPasses(tag: UInt8, payload: UnsafeRawPointer) -> Bool {
      switch AttributeValueCell.Tag(byte: tag) {
      case .none: return isOptional
      case .string:
        // Measured through the pointer (the string borrowed, not copied out), and only when
        // the attribute has bounds.
        return passes(stringOfLength: payload.assumingMemoryBound(to: String.self).pointee.utf16.count)
      case .integer: return passes(payload.load(as: Int64.self))
      case .double: return passes(payload.load(as: Double.self))
      case .float: return passes(payload.load(as: Float.self))
      case .boolean: return passes(payload.load(as: Bool.self))
      case .date: return passes(payload.load(as: Date.self))
      case .uuid: return type == .uuid
      case .binary: return type == .binary && minimum == nil && maximum == nil
      case .decimal, .uri, .boxed: return false
      }
    }

    /// A string passes without its pattern checked only when it has none; `length` (in UTF-16
    /// units, as lengths are bounded) is measured only when there are bounds.
    @inline(__always)
    private func passes(stringOfLength length: @autoclosure () -> Int) -> Bool {
      guard type == .string, !hasPattern else { return false }
      return minimum == nil && maximum == nil || isWithinBounds(Double(length()))
    }

    @inline(__always)
    private func passes(_ integer: Int64) -> Bool {
      switch type {
      case .integer64: break
      case .integer32: guard Int32(exactly: integer) != nil else { return false }
      case .integer16: guard Int16(exactly: integer) != nil else { return false }
      default: return false
      }
      return isWithinBounds(Double(integer))
    }

    @inline(__always)
    private func passes(_ double: Double) -> Bool { type == .double && !double.isNaN && isWithinBounds(double) }

    @inline(__always)
    private func passes(_ float: Float) -> Bool { type == .float && !float.isNaN && isWithinBounds(Double(float)) }

    @inline(__always)
    private func passes(_ boolean: Bool) -> Bool { type == .boolean && isWithinBounds(boolean ? 1 : 0) }

    @inline(__always)
    private func passes(_ date: Date) -> Bool { type == .date && isWithinBounds(date.timeIntervalSinceReferenceDate) }

    /// Whether a measured value or length is within the bounds, as ``ObjectValidator`` checks them.
    @inline(__always)
    private func isWithinBounds(_ measured: Double) -> Bool {
      if let minimum, measured < minimum { return false }
      if let maximum, measured > maximum { return false }
      return true
    }
  }

  let attributes: [Attribute]
  /// One ``AttributeCheck`` per attribute of ``attributes``: a save checks every attribute of
  /// every object, and visiting these retains nothing, where visiting the rules themselves
  /// retains each one and copying a value out retains its string.
  let attributeChecks: [AttributeCheck]
  /// The relationships with a rule that can fail: required, or with a minimum or maximum
  /// count. (An optional relationship without counts accepts every value.)
  let relationships: [Relationship]

  init(attributes: [AttributeDescription], relationships: [ObjectLayout.RelationshipSlot]) {
    self.attributes = attributes.indices.compactMap { slot in
      let attribute = attributes[slot]
      // A composite attribute's own slot holds no value: its leaves have rules of their own.
      guard !attribute.isTransient, attribute.attributeType != .composite else { return nil }
      let pattern = attribute.regularExpression.flatMap { $0.isEmpty || attribute.attributeType != .string ? nil : $0 }
      let check = AttributeCheck(
        slot: slot, type: attribute.attributeType, isOptional: attribute.isOptional,
        minimum: attribute.minValue?.numericValue, maximum: attribute.maxValue?.numericValue,
        hasPattern: pattern != nil)
      return Attribute(
        check: check, name: attribute.name, minimumText: attribute.minValue.map { "\($0)" } ?? "",
        maximumText: attribute.maxValue.map { "\($0)" } ?? "", pattern: pattern)
    }
    self.attributeChecks = self.attributes.map(\.check)
    self.relationships = relationships.indices.compactMap { slot in
      let relationship = relationships[slot].relationship
      guard !relationship.isTransient,
        !relationship.isOptional || relationship.minCount > 0 || relationship.maxCount > 0
      else { return nil }
      return Relationship(
        slot: slot, name: relationship.name, isToMany: relationship.isToMany, isOptional: relationship.isOptional,
        minCount: relationship.minCount, maxCount: relationship.maxCount)
    }
  }
}
