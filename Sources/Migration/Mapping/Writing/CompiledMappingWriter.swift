import DataModel
import Foundation
import Persistence

/// Writes a mapping model as Xcode's mapping compiler does: a `.cdm` file, the keyed archive of
/// an `NSMappingModel` whose entity mappings carry their names, types, source fetch, policy
/// class, user info, property mappings and the version hashes of both entities — the form apps
/// ship and the compiled-mapping reader reads.
public enum CompiledMappingWriter {
  /// The `.cdm` bytes of a mapping, the same for the same mapping.
  ///
  /// - Throws: `PropertyListError` when an expression cannot be archived.
  public static func encode(_ mapping: MappingModel) throws -> Data {
    var writer = KeyedArchiveWriter()
    let null = KeyedArchiveWriter.null
    func optionalString(_ value: String?, _ writer: inout KeyedArchiveWriter) -> BinaryPropertyList.Value {
      value.map { writer.string($0) } ?? null
    }
    func optionalData(_ value: Data?, _ writer: inout KeyedArchiveWriter) -> BinaryPropertyList.Value {
      value.map { writer.scalar(.data($0)) } ?? null
    }
    func expression(_ value: MappingExpression?, _ writer: inout KeyedArchiveWriter) throws -> BinaryPropertyList.Value
    {
      guard let value else { return null }
      return try writer.embed(value.archiveData())
    }
    var entityRefs: [BinaryPropertyList.Value] = []
    for entity in mapping.entityMappings {
      func properties(_ list: [MappingModel.PropertyMapping], _ writer: inout KeyedArchiveWriter) throws
        -> BinaryPropertyList.Value
      {
        var refs: [BinaryPropertyList.Value] = []
        for property in list {
          refs.append(
            writer.object(
              className: "NSPropertyMapping", classHierarchy: ["NSPropertyMapping", "NSObject"],
              fields: [
                ("NSDestinationPropertyName", writer.string(property.destinationProperty)),
                ("NSValueExpression", try expression(property.value, &writer)),
                ("NSUserInfo", null),
              ]))
        }
        return writer.array(refs)
      }
      let userInfo =
        entity.userInfo.isEmpty
        ? null
        : writer.dictionary(
          entity.userInfo.keys.sorted().map { (writer.string($0), writer.string(entity.userInfo[$0]!)) })
      entityRefs.append(
        writer.object(
          className: "NSEntityMapping", classHierarchy: ["NSEntityMapping", "NSObject"],
          fields: [
            ("NSMappingName", writer.string(entity.name)),
            ("NSMappingType", .integer(Int64(entity.kind.typeCode))),
            ("NSSourceEntityName", optionalString(entity.sourceEntity, &writer)),
            ("NSSourceEntityVersionHash", optionalData(entity.sourceEntityVersionHash, &writer)),
            ("NSDestinationEntityName", optionalString(entity.destinationEntity, &writer)),
            ("NSDestinationEntityVersionHash", optionalData(entity.destinationEntityVersionHash, &writer)),
            ("NSSourceExpression", try expression(entity.sourceExpression, &writer)),
            ("NSUserInfo", userInfo),
            ("NSEntityMigrationPolicyClassName", optionalString(entity.policyClassName, &writer)),
            ("NSAttributeMappings", try properties(entity.attributeMappings, &writer)),
            ("NSRelationshipMappings", try properties(entity.relationshipMappings, &writer)),
          ]))
    }
    let root = writer.object(
      className: "NSMappingModel", classHierarchy: ["NSMappingModel", "NSObject"],
      fields: [("NSEntityMappings", writer.array(entityRefs))])
    return writer.data(root: root)
  }
}
