import DataModel
import Foundation
import Persistence
import SQLite

/// How one entity mapping of a mapped step runs: what `modelc migrate --dry-run` shows.
public struct EntityMappingRoute: Sendable, Hashable, CustomStringConvertible {
  /// How the objects move.
  public enum Route: String, Sendable, Hashable, Codable {
    /// Set-based SQL statements; no objects are made.
    case sql
    /// Object by object, through the mapping's policy (or the default one).
    case objects
    /// Nothing moves (an `add` or `remove` mapping).
    case none
  }

  /// The entity mapping's name.
  public var name: String
  /// Its type.
  public var kind: MappingModel.EntityMapping.Kind
  /// Source and destination entities.
  public var sourceEntity: String?
  public var destinationEntity: String?
  /// The policy class it names.
  public var policyClassName: String?
  /// How it runs.
  public var route: Route
  /// Why it does not run as SQL (for the object path) or runs nothing.
  public var reason: String?
  /// For the SQL path: its statements, with bound values written as literals (the key ranges
  /// of stage 1 cover every source key; the engine runs them in ranges).
  public var statements: [String]

  public var description: String {
    var text = "\(name) [\(kind.rawValue)] \(sourceEntity ?? "–") → \(destinationEntity ?? "–"): "
    switch route {
    case .sql: text += "SQL"
    case .objects: text += "object by object" + (reason.map { " (\($0))" } ?? "")
    case .none: text += "nothing to move" + (reason.map { " (\($0))" } ?? "")
    }
    return text
  }
}

extension StoreMigration {
  /// How each entity mapping of a mapped step runs (SQL or object by object, and why), without
  /// running anything.
  ///
  /// - Returns: one route per entity mapping, in order; empty for an inferred step (which runs
  ///   as the in-place SQL of ``operations(for:)``).
  /// - Throws: ``MigrationEngineError`` when the mapping does not fit its versions.
  public func entityMappingRoutes(of step: MigrationPlan.Step) throws -> [EntityMappingRoute] {
    guard !step.mapping.isInferred else { return [] }
    let heavyweight = HeavyweightStep(
      source: step.source, destination: step.destination, mappingModel: step.mapping, policies: policies)
    return try heavyweight.entityPlans().map { plan in
      var route = EntityMappingRoute(
        name: plan.mapping.name, kind: plan.mapping.kind, sourceEntity: plan.mapping.sourceEntity,
        destinationEntity: plan.mapping.destinationEntity, policyClassName: plan.mapping.policyClassName, route: .none,
        reason: nil, statements: [])
      switch plan.route {
      case .sql(let compiled):
        route.route = .sql
        route.statements =
          compiled.instanceStatements(offset: 0, range: Int64.min...Int64.max).map(\.inlined)
          + compiled.relationships.map(\.sql.inlined)
      case .objects(let reason):
        route.route = .objects
        route.reason = reason
      case .nothing(let reason):
        route.reason = reason
      }
      return route
    }
  }
}

extension SQLiteSQL {
  /// The statement with each `?` outside quotes replaced by its argument as an SQL literal:
  /// what the `sqlite3` shell runs.
  var inlined: String {
    var result = ""
    var remaining = arguments[...]
    var quote: Character?
    for character in text {
      if let open = quote {
        if character == open { quote = nil }
        result.append(character)
      } else if character == "'" || character == "\"" {
        quote = character
        result.append(character)
      } else if character == "?", let argument = remaining.first {
        remaining = remaining.dropFirst()
        result += argument.sqlLiteral
      } else {
        result.append(character)
      }
    }
    return result
  }
}
