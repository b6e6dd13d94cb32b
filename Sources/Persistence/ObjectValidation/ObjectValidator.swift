import Foundation

/// Checks objects against every rule their model states, before a save writes them.
///
/// Rules: required attributes and relationships, minimum and maximum values (numbers and
/// dates), minimum and maximum lengths (strings, in UTF-16 units as `NSString` counts them, and
/// binary data, in bytes), regular expressions (whole-string match), to-many minimum and
/// maximum counts, Deny deletion rules, no NaN (SQLite would store NULL), and uniqueness
/// constraints (among the pending objects here; the store's side is the coordinator's). Every
/// failure is reported, not just the first. The rules come from each layout's
/// ``ValidationRules``.
struct ObjectValidator {
  private var regexCache: [String: NSRegularExpression] = [:]

  /// Failures of one object that is inserted or updated.
  mutating func validate(_ object: ManagedObject, in context: ObjectContext) -> [ValidationFailure] {
    var failures: [ValidationFailure] = []
    validate(object, in: context, into: &failures)
    return failures
  }

  /// Appends the failures of one object that is inserted or updated to `failures`.
  ///
  /// A save validates every object it writes, and almost all pass: appending in place costs
  /// them nothing, where returning an array per object cost an empty array appended each time,
  /// and a local array captured by `fail` a box and a run-time exclusivity check per object.
  mutating func validate(_ object: ManagedObject, in context: ObjectContext, into failures: inout [ValidationFailure]) {
    // The layout borrowed and the values read in place: this runs for every object a save
    // writes, and retaining the layout, each rule and each value it visits was most of its cost.
    object.unmanagedLayout._withUnsafeGuaranteedRef { layout in
      func fail(_ rule: ValidationFailure.Rule, _ property: String, _ value: String?, _ message: String) {
        failures.append(
          ValidationFailure(
            rule: rule, entity: layout.name, property: property, objectID: object.objectID, value: value,
            message: message))
      }
      withUnsafeMutablePointer(to: &object.attributeValues) { attributeValues in
        layout.validationRules.attributeChecks.withUnsafeBufferPointer { checks in
          for index in checks.indices {
            // The shortcut reads the slot where it is; only a value it leaves to the full check
            // is made (and, for a string, retained).
            let (tag, payload) = AttributeValues.cell(at: checks[index].slot, of: attributeValues)
            if !checks[index].certainlyPasses(tag: tag, payload: payload) {
              AttributeValues.withValue(at: checks[index].slot, of: attributeValues) { value in
                check(value, layout.validationRules.attributes[index], fail: fail)
              }
            }
          }
        }
      }
      validateRelationships(of: object, rules: layout.validationRules, fail: fail)
    }
  }

  /// Checks the relationships that have rules (required, counts) of one object.
  @inline(__always)
  private func validateRelationships(
    of object: ManagedObject, rules: ValidationRules,
    fail: (ValidationFailure.Rule, String, String?, String) -> Void
  ) {
    for relationship in rules.relationships {
      let slot = relationship.slot
      if relationship.isToMany {
        // Only loaded relationships can have changed; an unloaded one is as the store has it.
        guard let value = object.toManyValues[slot] else {
          if object.lifecycle == .inserted && !relationship.isOptional {
            fail(.required, relationship.name, nil, "at least one object is required")
          }
          continue
        }
        let count = value.ids.count
        if !relationship.isOptional && count == 0 {
          fail(.required, relationship.name, nil, "at least one object is required")
        }
        if relationship.minCount > 0 && count < relationship.minCount && (count > 0 || !relationship.isOptional) {
          fail(
            .minimumCount, relationship.name, "\(count)",
            "holds \(count) objects; at least \(relationship.minCount) are required")
        }
        if relationship.maxCount > 0 && count > relationship.maxCount {
          fail(
            .maximumCount, relationship.name, "\(count)",
            "holds \(count) objects; at most \(relationship.maxCount) are allowed")
        }
      } else if !relationship.isOptional && object.toOneValues[slot] == nil {
        fail(.required, relationship.name, nil, "a destination object is required")
      }
    }
  }

  /// Failures of one attribute value of an entity (required, type, range or length,
  /// pattern): what batch requests check without objects.
  mutating func validate(_ value: AttributeValue?, slot: Int, of layout: ObjectLayout, objectID: ObjectID)
    -> [ValidationFailure]
  {
    guard let attribute = layout.validationRules.attributes.first(where: { $0.slot == slot }),
      !attribute.check.certainlyPasses(value)
    else { return [] }
    var failures: [ValidationFailure] = []
    check(value, attribute) { rule, property, text, message in
      failures.append(
        ValidationFailure(
          rule: rule, entity: layout.name, property: property, objectID: objectID, value: text, message: message))
    }
    return failures
  }

  /// Checks one attribute value against its rules.
  private mutating func check(
    _ value: AttributeValue?, _ attribute: ValidationRules.Attribute,
    fail: (ValidationFailure.Rule, String, String?, String) -> Void
  ) {
    guard let value else {
      if !attribute.isOptional {
        fail(.required, attribute.name, nil, "a value is required")
      }
      return
    }
    if !AttributeValueTypeCheck.matches(value, attribute.type) {
      fail(.typeMismatch, attribute.name, "\(value)", "the value is not of type \(attribute.type.rawValue)")
      return
    }
    if value.isNaN {
      fail(.unstorableValue, attribute.name, "nan", "NaN cannot be stored: SQLite keeps a NaN REAL as NULL")
      return
    }
    if attribute.minimum != nil || attribute.maximum != nil {
      checkBounds(value, attribute: attribute, fail: fail)
    }
    if let pattern = attribute.pattern, case .string(let string) = value {
      if !matches(string, pattern: pattern) {
        fail(.regularExpression, attribute.name, string, "does not match the pattern \(pattern)")
      }
    }
  }

  /// Failures of a deleted object: Deny rules with destinations left.
  func validateDeletion(_ object: ManagedObject, in context: ObjectContext) -> [ValidationFailure] {
    var failures: [ValidationFailure] = []
    for (slot, item) in object.layout.relationships.enumerated() where item.relationship.deletionRule == .deny {
      let count: Int
      if item.relationship.isToMany {
        count =
          (context.loadedToMany(of: object, slot: slot)?.ids ?? []).filter { id in
            context.registry[id].map { !$0.isDeleted } ?? true
          }.count
      } else {
        count =
          object.toOneValues[slot].map { id in context.registry[id].map { $0.isDeleted ? 0 : 1 } ?? 1 } ?? 0
      }
      if count > 0 {
        failures.append(
          ValidationFailure(
            rule: .deleteDenied, entity: object.layout.name, property: item.relationship.name,
            objectID: object.objectID,
            value: "\(count)",
            message:
              "cannot be deleted while '\(item.relationship.name)' holds \(count) object\(count == 1 ? "" : "s") (Deny rule)"
          ))
      }
    }
    return failures
  }

  private func checkBounds(
    _ value: AttributeValue, attribute: ValidationRules.Attribute,
    fail: (ValidationFailure.Rule, String, String?, String) -> Void
  ) {
    let measured: Double?
    let isLength: Bool
    switch value {
    case .string(let string):
      measured = Double(string.utf16.count)
      isLength = true
    case .binary(let data) where attribute.type == .binary:
      measured = Double(data.count)
      isLength = true
    default:
      measured = value.numericValue
      isLength = false
    }
    guard let measured else { return }
    if let minimum = attribute.minimum, measured < minimum {
      if isLength {
        fail(
          .minimumLength, attribute.name, "\(value)", "is \(Int(measured)) long; the minimum length is \(Int(minimum))")
      } else {
        fail(.minimumValue, attribute.name, "\(value)", "is below the minimum \(attribute.minimumText)")
      }
    }
    if let maximum = attribute.maximum, measured > maximum {
      if isLength {
        fail(
          .maximumLength, attribute.name, "\(value)", "is \(Int(measured)) long; the maximum length is \(Int(maximum))")
      } else {
        fail(.maximumValue, attribute.name, "\(value)", "is above the maximum \(attribute.maximumText)")
      }
    }
  }

  private mutating func matches(_ string: String, pattern: String) -> Bool {
    let expression: NSRegularExpression
    if let cached = regexCache[pattern] {
      expression = cached
    } else {
      guard let compiled = try? NSRegularExpression(pattern: pattern) else { return false }
      regexCache[pattern] = compiled
      expression = compiled
    }
    let range = NSRange(string.startIndex..<string.endIndex, in: string)
    return expression.firstMatch(in: string, options: [.anchored], range: range)?.range == range
  }
}

extension AttributeValue {
  /// Whether the value is a floating-point NaN.
  fileprivate var isNaN: Bool {
    switch self {
    case .double(let value): value.isNaN
    case .float(let value): value.isNaN
    default: false
    }
  }
}
