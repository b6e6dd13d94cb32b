import DataModel
import Foundation
import Persistence

/// Evaluates a mapping's expressions on objects, for the object path of a heavyweight
/// migration: what `NSExpression` evaluation does in Core Data's migration manager.
///
/// It knows the variables of a mapping (`$source`, `$destination`; `$manager` and
/// `$entityPolicy` as function receivers), key paths through attributes and relationships with
/// collection operators (`@count`, `@sum`, `@avg`, `@min`, `@max`, the unions), the manager's
/// `destinationInstances…` and `sourceInstances…` functions, `FETCH` on the source context,
/// the conversions of ``MappingExpression/Conversion``, NSExpression's built-in functions on
/// numbers and strings, and sends every `$entityPolicy` function to the policy.
struct MappingExpressionEvaluator {
  let manager: MigrationManager
  let policy: EntityMigrationPolicy
  let mapping: MappingModel.EntityMapping
  var source: ManagedObject?
  var destination: ManagedObject?
  var propertyMapping: MappingModel.PropertyMapping?

  init(manager: MigrationManager, policy: EntityMigrationPolicy, mapping: MappingModel.EntityMapping) {
    self.manager = manager
    self.policy = policy
    self.mapping = mapping
  }

  /// Why an expression cannot be evaluated, in words (wrapped with the mapping, property and
  /// object by ``evaluate(_:for:)``).
  struct Failure: Error {
    var detail: String
  }

  /// The value of `expression`, for the destination property `property`.
  ///
  /// - Throws: ``MigrationEngineError/expression(entityMapping:property:object:detail:)`` naming
  ///   the mapping, property and source object; errors of policy functions as they are.
  func evaluate(_ expression: MappingExpression, for property: String?) throws -> MigrationValue {
    do {
      return try value(of: expression)
    } catch let failure as Failure {
      throw MigrationEngineError.expression(
        entityMapping: mapping.name, property: property,
        object: source.map { "\($0.entityName) \($0.objectID)" }, detail: "\(expression): \(failure.detail)")
    }
  }

  func value(of expression: MappingExpression) throws -> MigrationValue {
    switch expression {
    case .constant(let constant):
      return try value(of: constant)
    case .evaluatedObject:
      return source.map(MigrationValue.object) ?? .null
    case .variable(let name):
      switch name {
      case MappingExpression.Variable.source: return source.map(MigrationValue.object) ?? .null
      case MappingExpression.Variable.destination: return destination.map(MigrationValue.object) ?? .null
      default:
        throw Failure(
          detail:
            "$\(name) is not a value here; $source and $destination are, $manager and $entityPolicy receive functions")
      }
    case .keyPath(let base, let keyPath):
      if case .variable(MappingExpression.Variable.manager) = base {
        throw Failure(detail: "$manager.\(keyPath) is only usable as the context of a FETCH")
      }
      // A key path of one key (`$source.title`, the most common) is read without splitting it.
      if !keyPath.contains("."), !keyPath.hasPrefix("@") { return try step(try value(of: base), keyPath) }
      return try follow(try value(of: base), keyPath.split(separator: ".").map(String.init)[...])
    case .function(let receiver, let selector, let arguments):
      return try call(receiver, selector, arguments)
    case .fetch(let request, let context, let countOnly):
      return try fetch(request, context: context, countOnly: countOnly)
    case .aggregate(let items):
      let values = try items.map(value(of:))
      if !values.isEmpty, values.allSatisfy({ if case .object = $0 { true } else { false } }) {
        return .objects(values.flatMap(\.managedObjects))
      }
      return .list(values)
    case .set(let operation, let left, let right):
      let lhs = try value(of: left).managedObjects
      let rhs = Set(try value(of: right).managedObjects.map(ObjectIdentifier.init))
      switch operation {
      case .union:
        var seen = Set(lhs.map(ObjectIdentifier.init))
        var result = lhs
        for object in try value(of: right).managedObjects where seen.insert(ObjectIdentifier(object)).inserted {
          result.append(object)
        }
        return .objects(result)
      case .intersect: return .objects(lhs.filter { rhs.contains(ObjectIdentifier($0)) })
      case .minus: return .objects(lhs.filter { !rhs.contains(ObjectIdentifier($0)) })
      }
    case .symbol(let name):
      throw Failure(detail: "the symbol \(name) is only an index, not a value")
    case .anyKey:
      throw Failure(detail: "ANYKEY is not a value")
    }
  }

  private func value(of constant: MappingExpression.Constant) throws -> MigrationValue {
    switch constant {
    case .null: return .null
    case .string(let text): return .attribute(.string(text))
    case .integer(let number): return .attribute(.integer(number))
    case .double(let number): return .attribute(.double(number))
    case .bool(let flag): return .attribute(.boolean(flag))
    case .date(let date): return .attribute(.date(date))
    case .data(let data): return .attribute(.binary(data))
    case .className(let name): throw Failure(detail: "the class \(name) is only a function's receiver")
    }
  }

  // MARK: - Key paths

  private func follow(_ start: MigrationValue, _ components: ArraySlice<String>) throws -> MigrationValue {
    var current = start
    var rest = components
    while let component = rest.first {
      rest = rest.dropFirst()
      if component.hasPrefix("@") {
        return try collectionOperator(String(component.dropFirst()), on: current, rest: rest)
      }
      current = try step(current, component)
    }
    return current
  }

  private func step(_ value: MigrationValue, _ key: String) throws -> MigrationValue {
    switch value {
    case .null:
      return .null
    case .object(let object):
      return try property(key, of: object)
    case .objects(let objects):
      let values = try objects.map { try property(key, of: $0) }
      if values.allSatisfy({ if case .attribute = $0 { false } else if case .null = $0 { false } else { true } }) {
        return .objects(values.flatMap(\.managedObjects))
      }
      return .list(values)
    case .list(let values):
      return .list(try values.map { try step($0, key) })
    case .attribute(let attribute):
      throw Failure(detail: "'\(key)' is read from the value \(attribute), which is not an object")
    }
  }

  private func property(_ key: String, of object: ManagedObject) throws -> MigrationValue {
    guard let model = object.context?.model else {
      throw Failure(detail: "the object \(object.objectID) is no longer in a context")
    }
    // The object's layout finds the property by name in one lookup, inherited ones included
    // (the model's own lookups search the entity and each ancestor in turn): this runs for every
    // key of every expression of every object migrated.
    let layout = object.layout
    do {
      if let slot = layout.attributeSlots[key] {
        return object.attributeValue(at: slot).map(MigrationValue.attribute) ?? .null
      }
      if let slot = layout.relationshipSlots[key] {
        if layout.relationships[slot].relationship.isToMany { return .objects(try object.objects(forKey: key)) }
        return try object.object(forKey: key).map(MigrationValue.object) ?? .null
      }
    } catch {
      throw Failure(detail: "reading '\(key)' of \(object.entityName) \(object.objectID): \(error)")
    }
    let entity = model[layout.entity]
    let names = entity.attributes.map(\.name) + entity.relationships.map(\.name)
    let suggestion = EditDistance.suggestion(for: key, among: names).map { "; did you mean '\($0)'?" } ?? ""
    throw Failure(
      detail: "entity '\(object.entityName)' of version '\(model.name)' has no property '\(key)'\(suggestion)")
  }

  private func elements(of value: MigrationValue) -> [MigrationValue] {
    switch value {
    case .null: []
    case .objects(let objects): objects.map(MigrationValue.object)
    case .list(let values): values
    case .object, .attribute: [value]
    }
  }

  private func collectionOperator(_ name: String, on value: MigrationValue, rest: ArraySlice<String>) throws
    -> MigrationValue
  {
    guard let operation = MappingExpression.CollectionOperator(rawValue: name) else {
      throw Failure(detail: "@\(name) is not a collection operator")
    }
    let items = elements(of: value)
    switch operation {
    case .count:
      return .attribute(.integer(Int64(items.count)))
    case .sum, .avg, .min, .max:
      let operands = try items.map { try follow($0, rest) }
      let numbers = try operands.compactMap { operand -> Double? in
        guard case .attribute(let attribute) = operand else {
          if case .null = operand { return nil }
          throw Failure(detail: "@\(name) needs numbers, and one operand is \(operand)")
        }
        guard let number = attribute.numericValue else {
          throw Failure(detail: "@\(name) needs numbers, and one operand is \(attribute)")
        }
        return number
      }
      switch operation {
      case .sum: return .attribute(.double(numbers.reduce(0, +)))
      case .avg: return numbers.isEmpty ? .null : .attribute(.double(numbers.reduce(0, +) / Double(numbers.count)))
      case .min: return numbers.min().map { .attribute(.double($0)) } ?? .null
      default: return numbers.max().map { .attribute(.double($0)) } ?? .null
      }
    case .unionOfObjects, .distinctUnionOfObjects, .unionOfSets, .distinctUnionOfSets, .unionOfArrays,
      .distinctUnionOfArrays:
      var values: [MigrationValue] = []
      for item in items {
        let result = try follow(item, rest)
        if operation == .unionOfObjects || operation == .distinctUnionOfObjects {
          values.append(result)
        } else {
          values += elements(of: result)
        }
      }
      let distinct =
        operation == .distinctUnionOfObjects || operation == .distinctUnionOfSets || operation == .distinctUnionOfArrays
      if values.allSatisfy({ if case .object = $0 { true } else { false } }) {
        var objects = values.flatMap(\.managedObjects)
        if distinct {
          var seen = Set<ObjectIdentifier>()
          objects = objects.filter { seen.insert(ObjectIdentifier($0)).inserted }
        }
        return .objects(objects)
      }
      if distinct {
        var seen = Set<AttributeValue?>()
        values = values.filter { seen.insert($0.attributeValue).inserted }
      }
      return .list(values)
    }
  }

  // MARK: - Functions

  private func call(_ receiver: MappingExpression, _ selector: String, _ arguments: [MappingExpression]) throws
    -> MigrationValue
  {
    switch receiver {
    case .variable(MappingExpression.Variable.manager):
      return try callManager(selector, arguments)
    case .variable(MappingExpression.Variable.entityPolicy):
      let values = try arguments.map(value(of:))
      return try policy.evaluateFunction(named: selector, arguments: values, manager: manager)
    case .constant(.className(let className)):
      return try callBuiltIn(className, selector, try arguments.map(value(of:)))
    default:
      break
    }
    if let (conversion, operands) = MappingExpression.function(receiver, selector: selector, arguments: arguments)
      .conversion
    {
      return try convert(conversion, try operands.map(value(of:)))
    }
    throw Failure(
      detail:
        "FUNCTION(…, \"\(selector)\") is not a function modelc evaluates; it evaluates $manager's destinationInstances… and sourceInstances…, $entityPolicy functions (your policy's evaluateFunction(named:arguments:manager:)), the conversions \(MappingExpression.Conversion.allCases.map(\.selector).joined(separator: ", ")) and NSExpression's built-in functions"
    )
  }

  private func callManager(_ selector: String, _ arguments: [MappingExpression]) throws -> MigrationValue {
    func name() throws -> String {
      guard arguments.count == 2, case .constant(.string(let name)) = arguments[0] else {
        throw Failure(detail: "\(selector) takes a name (a string constant) and the objects")
      }
      return name
    }
    switch selector {
    case MappingExpression.Selector.destinationInstancesForEntityMapping:
      let name = try name()
      return .objects(
        try manager.destinationInstances(
          forEntityMappingName: name, sourceInstances: try value(of: arguments[1]).managedObjects))
    case MappingExpression.Selector.destinationInstancesForSourceRelationship:
      let name = try name()
      return .objects(
        try manager.destinationInstances(
          forSourceRelationshipNamed: name, sourceInstances: try value(of: arguments[1]).managedObjects))
    case "sourceInstancesForEntityMappingNamed:destinationInstances:":
      let name = try name()
      return .objects(
        try manager.sourceInstances(
          forEntityMappingName: name, destinationInstances: try value(of: arguments[1]).managedObjects))
    default:
      throw Failure(detail: "$manager has no function \"\(selector)\" that yields a value")
    }
  }

  private func fetch(_ request: MappingExpression, context: MappingExpression, countOnly: Bool) throws
    -> MigrationValue
  {
    guard
      let (entity, predicateText) = MappingExpression.fetch(request: request, context: context, countOnly: countOnly)
        .sourceFetchRequest
    else {
      throw Failure(
        detail:
          "FETCH needs FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\", \"Entity\", \"predicate\")"
      )
    }
    let objectContext: ObjectContext
    switch context {
    case .keyPath(.variable(MappingExpression.Variable.manager), "destinationContext"):
      objectContext = manager.destinationContext
    default:
      objectContext = manager.sourceContext
    }
    do {
      let predicate = try FetchPredicate(format: predicateText, argumentArray: [])
      var fetchRequest = FetchRequest<ManagedObject>(entityName: entity, predicate: predicate)
      fetchRequest.includesSubentities = false
      let objects = try objectContext.fetch(fetchRequest)
      return countOnly ? .attribute(.integer(Int64(objects.count))) : .objects(objects)
    } catch {
      throw Failure(detail: "FETCH of \(entity) where \(predicateText): \(error)")
    }
  }

  private func convert(_ conversion: MappingExpression.Conversion, _ operands: [MigrationValue]) throws
    -> MigrationValue
  {
    let first = operands.first ?? .null
    switch conversion {
    case .coalesce:
      return operands.first { !$0.isNull } ?? .null
    case .lowercase, .uppercase, .trim:
      guard case .attribute(.string(let text)) = first else {
        if first.isNull { return .null }
        throw Failure(detail: "\(conversion.selector) needs a string, not \(first)")
      }
      switch conversion {
      case .lowercase: return .attribute(.string(text.lowercased()))
      case .uppercase: return .attribute(.string(text.uppercased()))
      default: return .attribute(.string(text.trimmingCharacters(in: .whitespacesAndNewlines)))
      }
    case .string:
      guard case .attribute(let value) = first else { return .null }
      if case .string = value { return first }
      return (try? value.converted(to: .string)).flatMap { $0 }.map(MigrationValue.attribute)
        ?? .attribute(.string(value.description))
    case .integer, .double:
      guard case .attribute(let value) = first else { return .null }
      let converted = try? value.converted(to: conversion == .integer ? .integer64 : .double)
      if let converted = converted ?? nil { return .attribute(converted) }
      if conversion == .integer, let number = value.numericValue, abs(number) < 9e18 {
        return .attribute(.integer(Int64(number)))
      }
      throw Failure(detail: "\(conversion.selector) cannot convert \(value)")
    }
  }

  /// NSExpression's built-in functions (called on `_NSPredicateUtilities`).
  private func callBuiltIn(_ className: String, _ selector: String, _ values: [MigrationValue]) throws
    -> MigrationValue
  {
    func numbers() throws -> [Double] {
      try values.flatMap { elements(of: $0) }.compactMap { value -> Double? in
        if value.isNull { return nil }
        guard let number = value.attributeValue?.numericValue else {
          throw Failure(detail: "\(selector) needs numbers, not \(value)")
        }
        return number
      }
    }
    func string() throws -> String? {
      guard let first = values.first, !first.isNull else { return nil }
      guard let text = first.string else { throw Failure(detail: "\(selector) needs a string, not \(first)") }
      return text
    }
    switch selector {
    case "now": return .attribute(.date(manager.migrationDate))
    case "lowercase:": return try string().map { .attribute(.string($0.lowercased())) } ?? .null
    case "uppercase:": return try string().map { .attribute(.string($0.uppercased())) } ?? .null
    case "count:": return .attribute(.integer(Int64(values.flatMap { elements(of: $0) }.count)))
    case "sum:": return .attribute(.double(try numbers().reduce(0, +)))
    case "average:":
      let list = try numbers()
      return list.isEmpty ? .null : .attribute(.double(list.reduce(0, +) / Double(list.count)))
    case "min:": return try numbers().min().map { .attribute(.double($0)) } ?? .null
    case "max:": return try numbers().max().map { .attribute(.double($0)) } ?? .null
    case "abs:": return try numbers().first.map { .attribute(.double(abs($0))) } ?? .null
    case "add:to:", "from:subtract:", "multiply:by:", "divide:by:", "modulus:by:":
      let list = try numbers()
      guard list.count == 2 else { return .null }
      switch selector {
      case "add:to:": return .attribute(.double(list[0] + list[1]))
      case "from:subtract:": return .attribute(.double(list[0] - list[1]))
      case "multiply:by:": return .attribute(.double(list[0] * list[1]))
      case "divide:by:":
        guard list[1] != 0 else { throw Failure(detail: "divide:by: by zero") }
        return .attribute(.double(list[0] / list[1]))
      default:
        guard list[1] != 0 else { throw Failure(detail: "modulus:by: by zero") }
        return .attribute(.double(list[0].truncatingRemainder(dividingBy: list[1])))
      }
    default:
      throw Failure(detail: "\(className) has no function \"\(selector)\" that modelc evaluates")
    }
  }
}
