import DataModel
import Foundation

/// A model version compiled for the store: its layout in Core Data's schema, the object layouts,
/// each entity's SQL and row decoder, the entity of each `Z_ENT` number, and the version hashes.
///
/// All of it follows from the model version alone, and all of it is immutable, so a process
/// compiles a version once (``CompiledModelCache``) and every container of that version shares
/// it: opening a container costs opening the store, not compiling its model again.
final class CompiledModel: Sendable {
  let model: ModelVersion
  let schema: StoreSchema
  let layouts: ObjectLayouts
  /// Per-entity SQL prepared once.
  let statements: [EntityStatements]
  /// The entity of each `Z_ENT` value, indexed by the number.
  let entitiesByNumber: [EntityID?]
  /// The model's entity version hashes (`NSStoreModelVersionHashes`).
  let entityHashes: [String: Data]

  /// Compiles a model version for its derived layout, or for `schema`: the derived layout with
  /// an existing store's own names (``StoreSchema/adopting(existingTables:)``).
  init(model: ModelVersion, schema: StoreSchema? = nil) {
    self.model = model
    let schema = schema ?? StoreSchema(model: model)
    self.schema = schema
    let layouts = ObjectLayouts(model: model)
    self.layouts = layouts
    let tableColumns = EntityStatements.tableColumns(schema: schema, model: model)
    self.statements = model.entities.indices.map { index in
      let mapping = schema[EntityID(index)]
      return EntityStatements(
        mapping: mapping, layout: layouts.layouts[index], tableColumns: tableColumns[mapping.rootEntity.index] ?? [])
    }
    var numbers = [EntityID?](repeating: nil, count: (schema.entities.map(\.entityNumber).max() ?? 0) + 1)
    for mapping in schema.entities { numbers[mapping.entityNumber] = mapping.entity }
    self.entitiesByNumber = numbers
    self.entityHashes = model.versionHashes.entityHashes
  }
}
