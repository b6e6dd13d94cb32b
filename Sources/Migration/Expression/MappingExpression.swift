import Foundation

/// An expression of a mapping model: how a destination property's value, or an entity
/// mapping's source objects, are computed. It says what `NSExpression` can say in mapping
/// models.
///
/// Xcode stores these as keyed archives of `NSExpression` (``init(archive:)``,
/// ``archiveData()``); people read and write them in NSExpression's format syntax
/// (``description``, ``init(format:)``):
///
///     $source.numberOfFlagella
///     "privacy"   0   YES   nil
///     FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", $source.owner)
///     $source.countries.@distinctUnionOfSets.moods
///     FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "Car", "TRUEPREDICATE"), $manager.sourceContext, NO)
///
/// The engine asks for the forms it can run through accessors: ``sourceKeyPath``,
/// ``destinationInstances``, ``conversion``.
public indirect enum MappingExpression: Sendable, Hashable, Codable, CustomStringConvertible {
  /// A constant value (`NSConstantValueExpression`).
  case constant(Constant)
  /// The object the expression is evaluated on, `SELF` (`NSSelfExpression`).
  case evaluatedObject
  /// A variable, `$name` (`NSVariableExpression`); the name is stored without `$`.
  case variable(String)
  /// A key path followed from a base expression (`NSKeyPathExpression`): `$source.owner.name`,
  /// `$source.items.@count`; on ``evaluatedObject`` it prints as the bare key path. The key path
  /// is dot-separated and may hold collection operators (``CollectionOperator``).
  case keyPath(MappingExpression, String)
  /// `FUNCTION(receiver, "selector", arguments…)`: a method called by name
  /// (`NSFunctionExpression`).
  case function(MappingExpression, selector: String, arguments: [MappingExpression])
  /// `FETCH(request, context, countOnly)`: the objects (or their count) a fetch request
  /// expression finds in a context (`NSFetchRequestExpression`).
  case fetch(request: MappingExpression, context: MappingExpression, countOnly: Bool)
  /// `{a, b, …}`: a list of expressions (`NSAggregateExpression`).
  case aggregate([MappingExpression])
  /// A set operation between two collections, `a UNION b` (`NSSetExpression`).
  case set(SetOperation, MappingExpression, MappingExpression)
  /// A symbolic token, `FIRST`, `LAST` or `SIZE`, used as an index (`NSSymbolicExpression`).
  case symbol(String)
  /// `ANYKEY` (`NSAnyKeyExpression`).
  case anyKey

  /// A constant of an expression.
  public enum Constant: Sendable, Hashable, Codable {
    /// `nil`.
    case null
    /// A string.
    case string(String)
    /// An integer number.
    case integer(Int64)
    /// A floating-point number.
    case double(Double)
    /// A boolean, `YES` or `NO`.
    case bool(Bool)
    /// A date, printed as `CAST(<seconds since 2001-01-01>, "NSDate")`.
    case date(Date)
    /// Bytes, printed as `CAST("<base64>", "NSData")` (modelc's spelling: NSExpression has none).
    case data(Data)
    /// A class, printed as `CAST("<name>", "Class")`; NSExpression's built-in functions
    /// (`sum:`, `now`, …) are called on the class `_NSPredicateUtilities`.
    case className(String)
  }

  /// How an ``set(_:_:_:)`` expression combines its two collections.
  public enum SetOperation: String, Sendable, Hashable, Codable, CaseIterable {
    /// `UNION`.
    case union = "UNION"
    /// `INTERSECT`.
    case intersect = "INTERSECT"
    /// `MINUS`.
    case minus = "MINUS"
  }

  /// The collection operators of key paths (`@count`, `@distinctUnionOfSets`, …).
  public enum CollectionOperator: String, Sendable, Hashable, Codable, CaseIterable {
    case count, sum, avg, min, max
    case distinctUnionOfSets, distinctUnionOfObjects, distinctUnionOfArrays
    case unionOfObjects, unionOfArrays, unionOfSets
  }

  // MARK: - Building

  /// `$source.<keyPath>`: a value of the source object.
  public static func source(_ keyPath: String) -> MappingExpression {
    .keyPath(.variable(Variable.source), keyPath)
  }

  /// A string constant.
  public static func string(_ value: String) -> MappingExpression { .constant(.string(value)) }

  /// `nil`.
  public static let null = MappingExpression.constant(.null)

  /// `$manager`, the migration manager.
  public static let manager = MappingExpression.variable(Variable.manager)

  /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "<entityMapping>",
  /// $source.<sourceRelationship>)`: the destination objects another entity mapping made from
  /// the objects of a source relationship — how relationships are carried over.
  public static func destinationInstances(entityMapping: String, sourceRelationship: String) -> MappingExpression {
    .function(
      .manager, selector: Selector.destinationInstancesForEntityMapping,
      arguments: [.string(entityMapping), .source(sourceRelationship)])
  }

  /// `FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:",
  /// "<relationship>", $source.<relationship>)`: the same, when the relationship's destination is
  /// an entity hierarchy with several mappings, found through the relationship.
  public static func destinationInstances(sourceRelationshipNamed relationship: String) -> MappingExpression {
    .function(
      .manager, selector: Selector.destinationInstancesForSourceRelationship,
      arguments: [.string(relationship), .source(relationship)])
  }

  /// `FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "<entity>",
  /// "<predicate>"), $manager.sourceContext, NO)`: an entity mapping's source objects, as Apple's
  /// mapping compiler writes it (`TRUEPREDICATE` when the mapping has no filter).
  public static func sourceFetch(entity: String, predicate: String = "TRUEPREDICATE") -> MappingExpression {
    .fetch(
      request: .function(
        .manager, selector: Selector.fetchRequestForSourceEntity, arguments: [.string(entity), .string(predicate)]),
      context: .keyPath(.manager, "sourceContext"), countOnly: false)
  }

  /// The variables Core Data binds while it runs a mapping.
  public enum Variable {
    /// `$source`: the source object.
    public static let source = "source"
    /// `$destination`: the destination object.
    public static let destination = "destination"
    /// `$manager`: the migration manager.
    public static let manager = "manager"
    /// `$entityMapping`: the entity mapping being run.
    public static let entityMapping = "entityMapping"
    /// `$propertyMapping`: the property mapping being run.
    public static let propertyMapping = "propertyMapping"
    /// `$entityPolicy`: the entity mapping's migration policy object.
    public static let entityPolicy = "entityPolicy"
  }

  /// The selectors of `NSMigrationManager` that mapping models call.
  public enum Selector {
    /// `destinationInstancesForEntityMappingNamed:sourceInstances:`.
    public static let destinationInstancesForEntityMapping =
      "destinationInstancesForEntityMappingNamed:sourceInstances:"
    /// `destinationInstancesForSourceRelationshipNamed:sourceInstances:`.
    public static let destinationInstancesForSourceRelationship =
      "destinationInstancesForSourceRelationshipNamed:sourceInstances:"
    /// `fetchRequestForSourceEntityNamed:predicateString:`.
    public static let fetchRequestForSourceEntity = "fetchRequestForSourceEntityNamed:predicateString:"
  }

  // MARK: - Recognizing

  /// The key path when the expression is `$source.<keyPath>` (`"owner.name"` for
  /// `$source.owner.name`); nil otherwise.
  public var sourceKeyPath: String? {
    guard case .keyPath(.variable(Variable.source), let keyPath) = self else { return nil }
    return keyPath
  }

  /// The variable's name when the expression is a variable.
  public var variableName: String? {
    if case .variable(let name) = self { return name }
    return nil
  }

  /// The constant when the expression is one.
  public var constantValue: Constant? {
    if case .constant(let constant) = self { return constant }
    return nil
  }

  /// The components of a key path expression's key path (`["countries", "@distinctUnionOfSets",
  /// "moods"]`); empty for other expressions.
  public var keyPathComponents: [String] {
    guard case .keyPath(_, let keyPath) = self else { return [] }
    return keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
  }

  /// The collection operators a key path expression's key path uses, in order.
  public var collectionOperators: [CollectionOperator] {
    keyPathComponents.compactMap { $0.hasPrefix("@") ? CollectionOperator(rawValue: String($0.dropFirst())) : nil }
  }

  /// A call of `$manager`'s `destinationInstancesFor…:sourceInstances:`, the form relationship
  /// mappings take.
  public struct DestinationInstances: Sendable, Hashable {
    /// How the entity mapping that made the destination objects is found.
    public enum Lookup: Sendable, Hashable {
      /// By the entity mapping's name.
      case entityMapping(String)
      /// Through the named source relationship (Core Data picks the mapping per object).
      case sourceRelationship(String)
    }
    /// How the entity mapping is found.
    public var lookup: Lookup
    /// The expression giving the source objects (usually `$source.<relationship>`).
    public var sourceInstances: MappingExpression
    /// The source relationship when ``sourceInstances`` is `$source.<name>` with one component.
    public var sourceRelationship: String? {
      guard let keyPath = sourceInstances.sourceKeyPath, !keyPath.contains(".") else { return nil }
      return keyPath
    }
  }

  /// The call when the expression is `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:",
  /// "<name>", <instances>)` or its `…ForSourceRelationshipNamed:…` variant with a string constant
  /// for the name; nil otherwise.
  public var destinationInstances: DestinationInstances? {
    guard case .function(.variable(Variable.manager), let selector, let arguments) = self, arguments.count == 2,
      case .constant(.string(let name)) = arguments[0]
    else { return nil }
    switch selector {
    case Selector.destinationInstancesForEntityMapping:
      return DestinationInstances(lookup: .entityMapping(name), sourceInstances: arguments[1])
    case Selector.destinationInstancesForSourceRelationship:
      return DestinationInstances(lookup: .sourceRelationship(name), sourceInstances: arguments[1])
    default:
      return nil
    }
  }

  /// The entity and predicate text when the expression is the source fetch Apple's mapping
  /// compiler writes (see ``sourceFetch(entity:predicate:)``), with any context and count flag.
  public var sourceFetchRequest: (entity: String, predicate: String)? {
    guard case .fetch(let request, _, _) = self,
      case .function(.variable(Variable.manager), Selector.fetchRequestForSourceEntity, let arguments) = request,
      arguments.count == 2, case .constant(.string(let entity)) = arguments[0],
      case .constant(.string(let predicate)) = arguments[1]
    else { return nil }
    return (entity, predicate)
  }

  /// The variables the expression uses, sorted, without `$`.
  public var variables: [String] {
    var names: Set<String> = []
    visit { if case .variable(let name) = $0 { names.insert(name) } }
    return names.sorted()
  }

  /// The key paths read from `$source` anywhere in the expression, in order of appearance.
  public var sourceKeyPaths: [String] {
    var keyPaths: [String] = []
    visit { if let keyPath = $0.sourceKeyPath { keyPaths.append(keyPath) } }
    return keyPaths
  }

  /// Calls `body` on the expression and every expression inside it, outermost first.
  public func visit(_ body: (MappingExpression) -> Void) {
    body(self)
    switch self {
    case .constant, .evaluatedObject, .variable, .symbol, .anyKey: break
    case .keyPath(let base, _): base.visit(body)
    case .function(let receiver, _, let arguments):
      receiver.visit(body)
      for argument in arguments { argument.visit(body) }
    case .fetch(let request, let context, _):
      request.visit(body)
      context.visit(body)
    case .aggregate(let elements): for element in elements { element.visit(body) }
    case .set(_, let left, let right):
      left.visit(body)
      right.visit(body)
    }
  }
}
