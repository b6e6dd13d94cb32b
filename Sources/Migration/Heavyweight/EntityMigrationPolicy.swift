import DataModel
import Foundation
import Persistence

/// How the objects of one entity mapping move to the new store, stage by stage: Core Data's
/// `NSEntityMigrationPolicy`, with the same hooks under the same names, so that porting an
/// app's policy is mechanical.
///
/// A heavyweight migration runs every entity mapping of its mapping model through three
/// stages. The policy of an entity mapping is an instance of the class its mapping model
/// names (`entityMigrationPolicyClassName`, found through ``MigrationPolicies``), or of this
/// class when it names none:
///
/// 1. ``beginEntityMapping(_:manager:)``, then ``createDestinationInstances(forSource:in:manager:)``
///    for each source object, then ``endInstanceCreation(forMapping:manager:)``.
/// 2. ``createRelationships(forDestination:in:manager:)`` for each destination object made in
///    stage 1, then ``endRelationshipCreation(forMapping:manager:)``.
/// 3. ``performCustomValidation(forMapping:manager:)``, then the destination model's rules
///    are checked, then ``endEntityMapping(_:manager:)``.
///
/// The base class does what the mapping's expressions say: stage 1 inserts one object of the
/// destination entity, sets its attributes from their value expressions (with `$source` the
/// source object) and associates it with the source object; stage 2 sets its relationships.
/// An override calls `super` and then adds its own work, or replaces it.
///
/// Expressions that call `FUNCTION($entityPolicy, "name:", …)` reach
/// ``evaluateFunction(named:arguments:manager:)``, which a subclass overrides.
///
/// Objects are valid during the call they are passed to: the engine saves and releases them
/// batch by batch, so keep object IDs (or values) across calls, in ``MigrationManager/userInfo``
/// for example, not objects.
///
/// ```swift
/// final class TaskPolicy: EntityMigrationPolicy {
///   override func createDestinationInstances(
///     forSource source: ManagedObject, in mapping: MappingModel.EntityMapping, manager: MigrationManager
///   ) throws {
///     try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
///     let task = try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source])[0]
///     if try source.value(forKey: "isCompleted") == .boolean(true) {
///       try task.setValue(.date(manager.migrationDate), forKey: "completedAt")
///     }
///   }
/// }
/// ```
open class EntityMigrationPolicy {
  public required init() {}

  /// Called before the mapping's first stage. Does nothing in the base class.
  ///
  /// - Throws: Any error, which stops the migration (the store is left as it was).
  open func beginEntityMapping(_ mapping: MappingModel.EntityMapping, manager: MigrationManager) throws {}

  /// Creates the destination object(s) of one source object (stage 1).
  ///
  /// The base class inserts an object of the mapping's destination entity into
  /// ``MigrationManager/destinationContext``, sets each attribute that has a value expression,
  /// and records the association with ``MigrationManager/associate(sourceInstance:withDestinationInstance:for:)``.
  /// An override that creates objects itself must associate them too, or stage 2 will not see
  /// them.
  ///
  /// - Throws: ``MigrationEngineError`` when an expression cannot be evaluated; any error of
  ///   an override. Either stops the migration.
  open func createDestinationInstances(
    forSource source: ManagedObject, in mapping: MappingModel.EntityMapping, manager: MigrationManager
  ) throws {
    guard let entity = mapping.destinationEntity else { return }
    let destination = try manager.destinationContext.insert(entityNamed: entity)
    var evaluator = MappingExpressionEvaluator(manager: manager, policy: self, mapping: mapping)
    evaluator.source = source
    evaluator.destination = destination
    for property in mapping.attributeMappings {
      guard let expression = property.value else { continue }
      evaluator.propertyMapping = property
      let value = try evaluator.evaluate(expression, for: property.destinationProperty)
      try manager.setAttribute(property.destinationProperty, of: destination, to: value, mapping: mapping)
    }
    manager.associate(sourceInstance: source, withDestinationInstance: destination, for: mapping)
  }

  /// Called after the mapping's last object of stage 1. Does nothing in the base class.
  ///
  /// - Throws: Any error, which stops the migration.
  open func endInstanceCreation(forMapping mapping: MappingModel.EntityMapping, manager: MigrationManager) throws {}

  /// Sets the relationships of one destination object made in stage 1 (stage 2).
  ///
  /// The base class evaluates each relationship mapping's value expression, with `$source` the
  /// source object the destination object was made from, and sets the relationship to the
  /// objects it yields (usually `destinationInstancesForEntityMappingNamed:sourceInstances:`).
  ///
  /// - Throws: ``MigrationEngineError`` when an expression cannot be evaluated or yields
  ///   something that is not an object of the relationship's entity; any error of an override.
  open func createRelationships(
    forDestination destination: ManagedObject, in mapping: MappingModel.EntityMapping, manager: MigrationManager
  ) throws {
    let sources = try manager.sourceInstances(forEntityMappingName: mapping.name, destinationInstances: [destination])
    var evaluator = MappingExpressionEvaluator(manager: manager, policy: self, mapping: mapping)
    evaluator.source = sources.first
    evaluator.destination = destination
    for property in mapping.relationshipMappings {
      guard let expression = property.value else { continue }
      evaluator.propertyMapping = property
      let value = try evaluator.evaluate(expression, for: property.destinationProperty)
      try manager.setRelationship(property.destinationProperty, of: destination, to: value, mapping: mapping)
    }
  }

  /// Called after the mapping's last object of stage 2. Does nothing in the base class.
  ///
  /// - Throws: Any error, which stops the migration.
  open func endRelationshipCreation(forMapping mapping: MappingModel.EntityMapping, manager: MigrationManager) throws {
  }

  /// Checks what the model's rules cannot say, before they are checked (stage 3). Does
  /// nothing in the base class.
  ///
  /// - Throws: Any error, which refuses the migration (the store is left as it was).
  open func performCustomValidation(forMapping mapping: MappingModel.EntityMapping, manager: MigrationManager) throws {
  }

  /// Called after the mapping's last stage. Does nothing in the base class.
  ///
  /// - Throws: Any error, which stops the migration.
  open func endEntityMapping(_ mapping: MappingModel.EntityMapping, manager: MigrationManager) throws {}

  /// The value of `FUNCTION($entityPolicy, "name", arguments…)` in one of the mapping's
  /// expressions: where a ported policy's Objective-C methods called from expressions go.
  ///
  /// `name` is the selector as written (`"epoch"`, `"completionDateFor:"`); `arguments` are
  /// the evaluated arguments. The base class handles no function.
  ///
  /// - Throws: ``MigrationEngineError/unhandledFunction(_:policy:entityMapping:)`` in the base
  ///   class; an override throws it for names it does not handle (call `super`).
  open func evaluateFunction(named name: String, arguments: [MigrationValue], manager: MigrationManager) throws
    -> MigrationValue
  {
    throw MigrationEngineError.unhandledFunction(
      name, policy: String(describing: type(of: self)), entityMapping: manager.currentEntityMapping?.name ?? "")
  }
}
