import DataModel
import Foundation
import Persistence

/// Reads Xcode's `xcmapping.xml` (a Core Data XML store of the mapping editor's objects) into a
/// ``MappingModelSource``.
///
/// Only what is reachable from the one `XDDEVMAPPINGMODEL` object counts: files keep entity
/// and property mappings left behind by earlier edits, with nothing pointing at them. Binary
/// fields are base64 keyed archives: expressions (``MappingExpression``), user info
/// dictionaries and the two model snapshots (``ModelSnapshot``). A snapshot that does not decode
/// is not an error here — the mapping is then matched by its recorded model path, and says so.
enum XcodeMappingReader {
  static func read(_ bytes: [UInt8], path: String, name: String) throws(MappingReadError) -> MappingModelSource {
    let document = try XMLStoreDocument(bytes: bytes, path: path)
    let models = document.objectIDs.compactMap { document.objectsByID[$0] }.filter { $0.type == "XDDEVMAPPINGMODEL" }
    guard let model = models.first else {
      throw .at(
        document.rootLocation, "not-a-mapping-model", "the file holds no mapping model object (XDDEVMAPPINGMODEL)",
        fix: "this is a Core Data XML store but not an Xcode mapping model")
    }
    guard models.count == 1 else {
      throw .at(
        models[1].location, "not-a-mapping-model", "the file holds \(models.count) mapping model objects, not one")
    }
    var entityMappings: [MappingModelSource.EntityMappingSource] = []
    for entity in try document.targets(of: model, "entitymappings", type: "XDDEVENTITYMAPPING") {
      entityMappings.append(try readEntityMapping(entity, in: document))
    }
    // Mapping numbers give the order; the file's order breaks ties.
    entityMappings = entityMappings.enumerated().sorted {
      ($0.element.number, $0.offset) < ($1.element.number, $1.offset)
    }.map(\.element)
    return MappingModelSource(
      path: path, name: name, format: .xcmappingmodel,
      source: try readSide(model, document: document, path: "sourcemodelpath", data: "sourcemodeldata"),
      destination: try readSide(
        model, document: document, path: "destinationmodelpath", data: "destinationmodeldata"),
      entityMappings: entityMappings, location: model.location)
  }

  private static func readSide(
    _ model: XMLStoreDocument.StoredObject, document: XMLStoreDocument, path pathKey: String, data dataKey: String
  ) throws(MappingReadError) -> MappingModelSource.Side {
    var side = MappingModelSource.Side(modelPath: model.string(pathKey).flatMap { $0.isEmpty ? nil : $0 })
    guard let attribute = model.attributes[dataKey] else {
      side.snapshotProblem = "the mapping model has no \(dataKey)"
      return side
    }
    let data = try document.binary(attribute, of: model, named: dataKey)
    let versionName = side.modelPath.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }
    do {
      side.snapshot = try ModelSnapshot.decode(data, name: versionName ?? "snapshot")
    } catch {
      side.snapshotProblem = "\(dataKey) could not be decoded: \(error)"
    }
    return side
  }

  private static func readEntityMapping(
    _ object: XMLStoreDocument.StoredObject, in document: XMLStoreDocument
  ) throws(MappingReadError) -> MappingModelSource.EntityMappingSource {
    func nonEmpty(_ key: String) -> String? {
      guard let value = object.string(key), !value.isEmpty else { return nil }
      return value
    }
    var mapping = MappingModelSource.EntityMappingSource(
      name: nonEmpty("name"), sourceEntity: nonEmpty("sourcename"), destinationEntity: nonEmpty("destinationname"),
      number: Int(object.string("mappingnumber")?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0,
      policyClassName: nonEmpty("migrationpolicyclassname"), sourceFilter: nonEmpty("sourcefilterpredicatestring"),
      location: object.location)
    if let attribute = object.attributes["sourceexpressiondata"] {
      mapping.sourceExpression = try expression(attribute, of: object, named: "sourceexpressiondata", in: document)
    }
    if let attribute = object.attributes["userinfodata"] {
      mapping.userInfo = try userInfo(attribute, of: object, in: document)
    }
    for property in try document.targets(of: object, "attributemappings", type: "XDDEVATTRIBUTEMAPPING") {
      mapping.attributeMappings.append(try readPropertyMapping(property, in: document))
    }
    for property in try document.targets(of: object, "relationshipmappings", type: "XDDEVRELATIONSHIPMAPPING") {
      mapping.relationshipMappings.append(try readPropertyMapping(property, in: document))
    }
    return mapping
  }

  private static func readPropertyMapping(
    _ object: XMLStoreDocument.StoredObject, in document: XMLStoreDocument
  ) throws(MappingReadError) -> MappingModelSource.PropertyMappingSource {
    guard let name = object.string("name"), !name.isEmpty else {
      throw .at(
        object.location, "malformed-object",
        "a property mapping (object \(object.id)) without a destination property name",
        fix: "reopen the mapping model in Xcode and choose the destination property")
    }
    var mapping = MappingModelSource.PropertyMappingSource(name: name, location: object.location)
    if let attribute = object.attributes["valueexpressiondata"] {
      mapping.expression = try expression(attribute, of: object, named: "valueexpressiondata", in: document)
    }
    mapping.sourceKeyPath = object.string("sourcekeypath").flatMap { $0.isEmpty ? nil : $0 }
    mapping.sourceMappingName = object.string("sourcemappingname").flatMap { $0.isEmpty ? nil : $0 }
    return mapping
  }

  private static func expression(
    _ attribute: XMLStoreDocument.Attribute, of object: XMLStoreDocument.StoredObject, named name: String,
    in document: XMLStoreDocument
  ) throws(MappingReadError) -> MappingExpression {
    let data = try document.binary(attribute, of: object, named: name)
    do {
      return try MappingExpression(archive: data)
    } catch {
      throw .at(
        attribute.location, "bad-expression", "\(name) of object \(object.id) is not a readable expression: \(error)",
        fix: "reopen the mapping model in Xcode and set the expression again")
    }
  }

  private static func userInfo(
    _ attribute: XMLStoreDocument.Attribute, of object: XMLStoreDocument.StoredObject, in document: XMLStoreDocument
  ) throws(MappingReadError) -> [String: String] {
    let data = try document.binary(attribute, of: object, named: "userinfodata")
    do {
      return try UserInfoArchive.decode(data)
    } catch {
      throw .at(attribute.location, "bad-user-info", "userinfodata of object \(object.id) is not readable: \(error)")
    }
  }
}

/// User info dictionaries of mapping models, archived as `NSDictionary` of strings.
enum UserInfoArchive {
  /// Decodes a user info archive; values that are not strings are written as text.
  ///
  /// - Throws: `PropertyListError` when the data is not a keyed archive of a dictionary.
  static func decode(_ data: Data) throws -> [String: String] {
    guard case .dictionary(let pairs) = try KeyedArchive(data: data).root() else {
      throw PropertyListError("the user info is not a dictionary")
    }
    var info: [String: String] = [:]
    for (key, value) in pairs {
      guard let key = key.string else { throw PropertyListError("the user info has a key that is not a string") }
      info[key] = text(value)
    }
    return info
  }

  static func text(_ value: KeyedArchive.Value) -> String {
    switch value {
    case .null: ""
    case .string(let string): string
    case .integer(let number): String(number)
    case .real(let number): String(number)
    case .bool(let flag): flag ? "YES" : "NO"
    case .data(let data): data.base64EncodedString()
    case .date(let date): String(date.timeIntervalSinceReferenceDate)
    case .array(let values): "(" + values.map(text).joined(separator: ", ") + ")"
    case .dictionary(let pairs): "{" + pairs.map { "\(text($0.key)) = \(text($0.value))" }.joined(separator: "; ") + "}"
    case .object(let object): "<\(object.className)>"
    }
  }

  /// Encodes a user info dictionary, keys sorted.
  static func encode(_ info: [String: String]) -> Data {
    var writer = KeyedArchiveWriter()
    let pairs = info.keys.sorted().map { key in (key: writer.string(key), value: writer.string(info[key]!)) }
    let root = writer.dictionary(pairs)
    return writer.data(root: root)
  }
}
