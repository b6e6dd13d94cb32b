import DataModel
import Foundation
import Persistence

/// Writes a model version as the snapshot Xcode embeds in a mapping model: a keyed archive of
/// its editing model (`XDPMModel`), laid out as the snapshots of real mapping models are (see
/// ``ModelSnapshot`` for the structure), so that ``ModelSnapshot`` reads it back to a version
/// with the same version hashes and Xcode can open the mapping.
///
/// What it does not write, because no sample shows how Xcode stores it (docs/mappings.md lists
/// them): fetched properties, fetch indexes, compound indexes, configurations, fetch request
/// templates, user info, and the preserve-after-deletion flag. None of them, except the last,
/// enters a version hash.
package enum ModelSnapshotWriter {
  package static func encode(_ version: ModelVersion) -> Data {
    var state = State(version: version)
    let root = state.writeModel()
    return state.writer.data(root: root)
  }

  private struct State {
    let version: ModelVersion
    var writer = KeyedArchiveWriter()
    /// Each entity's object, reserved before any is written: relationships point at them.
    var entityRefs: [String: BinaryPropertyList.Value] = [:]
    /// Each relationship's object, by "Entity.relationship": inverses point at them.
    var relationshipRefs: [String: BinaryPropertyList.Value] = [:]

    init(version: ModelVersion) {
      self.version = version
    }

    static let elementClasses = ["XDUMLNamedElementImp", "XDUMLElementImp", "NSObject"]
    static let classClasses = ["XDUMLClassImp", "XDUMLClassifierImp", "XDUMLNamespaceImp"] + elementClasses

    /// A stable element number for a path in the model, as Xcode gives each element one.
    static func elementID(_ path: String) -> BinaryPropertyList.Value {
      var hash: UInt32 = 2_166_136_261
      for byte in path.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
      return .integer(Int64(hash))
    }

    mutating func writeModel() -> BinaryPropertyList.Value {
      let root = writer.reserve()
      let package = writer.reserve()
      let entities = version.entities.sorted { $0.name < $1.name }
      for entity in entities {
        entityRefs[entity.name] = writer.reserve()
        for relationship in entity.relationships {
          relationshipRefs["\(entity.name).\(relationship.name)"] = writer.reserve()
        }
      }
      let classes = entities.map { (key: writer.string($0.name), value: entityRefs[$0.name]!) }
      for entity in entities { writeEntity(entity, package: package) }
      let yes = writer.string("YES")
      let emptyDictionary = { (writer: inout KeyedArchiveWriter) in
        writer.dictionary([], className: "NSMutableDictionary")
      }
      writer.set(
        package, className: "XDModelPackage",
        classHierarchy: ["XDModelPackage", "XDUMLPackageImp", "XDUMLNamespaceImp"] + Self.elementClasses,
        fields: [
          ("XDBucketForClasseswasEncoded", yes),
          ("XDBucketForPackagesstorage", emptyDictionary(&writer)),
          ("XDBucketForInterfacesstorage", emptyDictionary(&writer)),
          ("_xd_owningModel", root),
          ("XDBucketForPackageswasEncoded", yes),
          ("_owner", KeyedArchiveWriter.null),
          ("XDBucketForDataTypesstorage", emptyDictionary(&writer)),
          ("_visibility", .integer(0)),
          ("XDBucketForClassesstorage", writer.dictionary(classes, className: "NSMutableDictionary")),
          ("XDBucketForDataTypeswasEncoded", yes),
          ("XDBucketForInterfaceswasEncoded", yes),
          ("_name", writer.string("")),
          ("_uniqueElementID", KeyedArchiveWriter.null),
        ])
      writer.set(
        root, className: "XDPMModel", classHierarchy: ["XDPMModel", "XDModel", "NSObject"],
        fields: [
          ("_xd_rootPackage", package),
          ("_xd_comments", writer.array([], className: "NSMutableArray")),
          ("_xd_modelManager", KeyedArchiveWriter.null),
          ("_configurationsByName", emptyDictionary(&writer)),
          ("_xd_modelName", KeyedArchiveWriter.null),
          ("_modelVersionIdentifier", writer.string(version.versionIdentifier ?? "")),
        ])
      return root
    }

    mutating func writeEntity(_ entity: EntityDescription, package: BinaryPropertyList.Value) {
      let ref = entityRefs[entity.name]!
      let ordered = writer.string("ordered")
      let yes = writer.string("YES")
      var written: [(name: String, ref: BinaryPropertyList.Value)] = []
      for attribute in entity.attributes {
        written.append((attribute.name, writeAttribute(attribute, owner: ref, entity: entity.name)))
      }
      for relationship in entity.relationships {
        written.append((relationship.name, writeRelationship(relationship, owner: ref, entity: entity.name)))
      }
      let properties = written.sorted { $0.name < $1.name }.map { (key: writer.string($0.name), value: $0.ref) }
      let constraints = writer.array(
        entity.uniquenessConstraints.map { constraint in
          writer.array(constraint.properties.map { writer.string($0) }, className: "NSMutableArray")
        }, className: "NSMutableArray")
      let classMapping = writer.object(
        className: "XDUMLClassImp", classHierarchy: Self.classClasses,
        fields: [
          ("_name", writer.string("XDGenericRecordClass")), ("_owner", KeyedArchiveWriter.null),
          ("_uniqueElementID", KeyedArchiveWriter.null), ("_isAbstract", .bool(false)), ("_visibility", .integer(0)),
        ])
      let stereotype = stereotype(
        "XD_PStereotype", owner: ref,
        settings: [
          ("XDPMCompoundIndexes", writer.array([], className: "NSMutableArray")),
          ("XD_PSK_elementID", text(entity.renamingIdentifier)),
          ("XDPMUniquenessConstraints", constraints),
          ("XD_PSK_versionHashModifier", text(entity.versionHashModifier)),
          ("XD_PSK_fetchRequestsArray", writer.array([], className: "NSMutableArray")),
          ("XD_PSK_isAbstract", .bool(entity.isAbstract)),
          ("XD_PSK_userInfo", writer.dictionary([], className: "NSMutableDictionary")),
          ("XD_PSK_classMapping", classMapping),
          ("XD_PSK_entityClassName", writer.string(entity.representedClassName ?? "NSManagedObject")),
        ])
      var generalizations: [BinaryPropertyList.Value] = []
      if let parent = entity.parentEntityName, let parentRef = entityRefs[parent] {
        generalizations.append(
          writer.object(
            className: "XDUMLGeneralizationImp", classHierarchy: ["XDUMLGeneralizationImp"] + Self.elementClasses,
            fields: [
              ("_general", parentRef), ("_name", KeyedArchiveWriter.null), ("_owner", ref), ("_specific", ref),
              ("_uniqueElementID", Self.elementID("\(entity.name)<\(parent)")), ("_visibility", .integer(0)),
            ]))
      }
      writer.set(
        ref, className: "XDPMEntity", classHierarchy: ["XDPMEntity"] + Self.classClasses,
        fields: [
          ("XDBucketForOwnedAttributesordered", ordered),
          ("XDBucketForOwnedAttributesstorage", writer.dictionary(properties, className: "NSMutableDictionary")),
          ("XDBucketForStereotypeswasEncoded", yes),
          ("XDBucketForOwnedAttributeswasEncoded", yes),
          ("_owner", package),
          (
            "XDBucketForStereotypesstorage",
            writer.dictionary([(writer.string("XD_PStereotype"), stereotype)], className: "NSMutableDictionary")
          ),
          ("XDBucketForGeneralizationsduplicates", writer.string("duplicates")),
          ("_visibility", .integer(0)),
          ("XDBucketForGeneralizationsordered", ordered),
          ("XDBucketForGeneralizationsstorage", writer.array(generalizations, className: "NSMutableArray")),
          ("XDBucketForGeneralizationswasEncoded", yes),
          ("XDBucketForStereotypesordered", ordered),
          ("_name", writer.string(entity.name)),
          ("_isAbstract", .bool(entity.isAbstract)),
          ("_uniqueElementID", Self.elementID(entity.name)),
        ])
    }

    mutating func propertySettings(
      isOptional: Bool, isTransient: Bool, isIndexed: Bool, renamingIdentifier: String?, versionHashModifier: String?
    ) -> [(String, BinaryPropertyList.Value)] {
      [
        ("XD_PPSK_isStoredInTruthFile", .bool(false)),
        ("XD_PPSK_versionHashModifier", text(versionHashModifier)),
        ("XD_PPSK_userInfo", writer.dictionary([], className: "NSMutableDictionary")),
        ("XD_PPSK_isIndexed", .bool(isIndexed)),
        ("XD_PPSK_isOptional", .bool(isOptional)),
        ("XD_PPSK_isSpotlightIndexed", .bool(false)),
        ("XD_PPSK_elementID", text(renamingIdentifier)),
        ("XD_PPSK_isTransient", .bool(isTransient)),
      ]
    }

    mutating func writeAttribute(_ attribute: AttributeDescription, owner: BinaryPropertyList.Value, entity: String)
      -> BinaryPropertyList.Value
    {
      let ref = writer.reserve()
      let common = stereotype(
        "XD_PPropStereotype", owner: ref,
        settings: propertySettings(
          isOptional: attribute.isOptional, isTransient: attribute.isTransient, isIndexed: attribute.isIndexed,
          renamingIdentifier: attribute.renamingIdentifier, versionHashModifier: attribute.versionHashModifier))
      let specific = stereotype(
        "XD_PAtt_Stereotype", owner: ref,
        settings: [
          ("XD_PAttK_defaultValueAsString", text(attribute.defaultValueString)),
          ("XD_PAttK_allowsExternalBinaryDataStorage", .bool(attribute.allowsExternalBinaryDataStorage)),
          ("XD_PAttK_minValueString", text(attribute.minValueString)),
          ("XD_PAttK_attributeType", .integer(Int64(attribute.attributeType.typeCode))),
          ("XD_PAttK_maxValueString", text(attribute.maxValueString)),
          ("XD_PAttK_valueTransformerName", text(attribute.valueTransformerName)),
          ("XD_PAttK_regularExpressionString", text(attribute.regularExpression)),
        ])
      setProperty(
        ref, className: "XDPMAttribute", name: attribute.name, owner: owner, path: "\(entity).\(attribute.name)",
        stereotypes: [("XD_PPropStereotype", common), ("XD_PAtt_Stereotype", specific)])
      return ref
    }

    mutating func writeRelationship(
      _ relationship: RelationshipDescription, owner: BinaryPropertyList.Value, entity: String
    )
      -> BinaryPropertyList.Value
    {
      let ref = relationshipRefs["\(entity).\(relationship.name)"]!
      let common = stereotype(
        "XD_PPropStereotype", owner: ref,
        settings: propertySettings(
          isOptional: relationship.isOptional, isTransient: relationship.isTransient, isIndexed: relationship.isIndexed,
          renamingIdentifier: relationship.renamingIdentifier, versionHashModifier: relationship.versionHashModifier))
      let inverse = relationship.inverseName.flatMap { name in
        relationshipRefs["\(relationship.inverseEntityName ?? relationship.destinationEntityName).\(name)"]
      }
      let specific = stereotype(
        "XD_PR_Stereotype", owner: ref,
        settings: [
          ("XD_PRK_minCount", .integer(Int64(relationship.minCount))),
          ("XD_PRK_deleteRule", .integer(Int64(relationship.deletionRule.ruleCode))),
          ("XD_PRK_maxCount", .integer(Int64(relationship.maxCount))),
          ("XD_PRK_destination", entityRefs[relationship.destinationEntityName] ?? KeyedArchiveWriter.null),
          ("XD_PRK_isToMany", .bool(relationship.isToMany)),
          ("XD_PRK_ordered", .bool(relationship.isOrdered)),
          ("XD_PRK_inverseRelationship", inverse ?? KeyedArchiveWriter.null),
        ])
      setProperty(
        ref, className: "XDPMRelationship", name: relationship.name, owner: owner,
        path: "\(entity).\(relationship.name)",
        stereotypes: [("XD_PPropStereotype", common), ("XD_PR_Stereotype", specific)])
      return ref
    }

    mutating func setProperty(
      _ ref: BinaryPropertyList.Value, className: String, name: String, owner: BinaryPropertyList.Value, path: String,
      stereotypes: [(String, BinaryPropertyList.Value)]
    ) {
      let ordered = writer.string("ordered")
      let yes = writer.string("YES")
      let storage = writer.dictionary(
        stereotypes.map { (key: writer.string($0.0), value: $0.1) }, className: "NSMutableDictionary")
      writer.set(
        ref, className: className,
        classHierarchy: [className, "XDPMProperty", "XDUMLPropertyImp"] + Self.elementClasses,
        fields: Self.umlPropertyFields(writer: &writer, name: name, owner: owner, default: KeyedArchiveWriter.null)
          + [
            ("XDBucketForStereotypeswasEncoded", yes), ("XDBucketForStereotypesstorage", storage),
            ("XDBucketForStereotypesordered", ordered), ("_uniqueElementID", Self.elementID(path)),
          ])
    }

    /// The fields every UML property carries.
    static func umlPropertyFields(
      writer: inout KeyedArchiveWriter, name: String, owner: BinaryPropertyList.Value,
      default value: BinaryPropertyList.Value
    ) -> [(String, BinaryPropertyList.Value)] {
      [
        ("_type", KeyedArchiveWriter.null), ("_default", value), ("_association", KeyedArchiveWriter.null),
        ("_owner", owner), ("_isReadOnly", .bool(false)), ("_isStatic", .bool(false)), ("_isUnique", .bool(false)),
        ("_visibility", .integer(0)), ("_isDerived", .bool(false)), ("_name", writer.string(name)),
        ("_isOrdered", .bool(false)), ("_isComposite", .bool(false)), ("_isLeaf", .bool(false)),
      ]
    }

    /// A stereotype owned by `owner`, holding one setting per (name, value).
    mutating func stereotype(
      _ name: String, owner: BinaryPropertyList.Value, settings: [(String, BinaryPropertyList.Value)]
    )
      -> BinaryPropertyList.Value
    {
      let ref = writer.reserve()
      var pairs: [(key: BinaryPropertyList.Value, value: BinaryPropertyList.Value)] = []
      for (key, value) in settings {
        let setting = writer.object(
          className: "XDUMLPropertyImp", classHierarchy: ["XDUMLPropertyImp"] + Self.elementClasses,
          fields: Self.umlPropertyFields(writer: &writer, name: key, owner: ref, default: value)
            + [("_uniqueElementID", KeyedArchiveWriter.null)])
        pairs.append((writer.string(key), setting))
      }
      writer.set(
        ref, className: "XDUMLStereotypeImp", classHierarchy: ["XDUMLStereotypeImp"] + Self.classClasses,
        fields: [
          ("_owner", owner), ("_name", writer.string(name)),
          ("XDBucketForOwnedAttributesordered", writer.string("ordered")),
          ("_uniqueElementID", KeyedArchiveWriter.null), ("XDBucketForOwnedAttributeswasEncoded", writer.string("YES")),
          ("_visibility", .integer(0)), ("_isAbstract", .bool(false)),
          ("XDBucketForOwnedAttributesstorage", writer.dictionary(pairs, className: "NSMutableDictionary")),
        ])
      return ref
    }

    /// A string setting, or nil (`$null`) when absent.
    mutating func text(_ value: String?) -> BinaryPropertyList.Value {
      guard let value, !value.isEmpty else { return KeyedArchiveWriter.null }
      return writer.string(value)
    }
  }
}
