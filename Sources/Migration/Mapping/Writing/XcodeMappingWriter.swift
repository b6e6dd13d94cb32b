import DataModel
import Foundation

/// Writes a mapping model in Xcode's format: `Name.xcmappingmodel/xcmapping.xml`, a Core Data
/// XML store document of the mapping editor's objects, with both model versions embedded as
/// snapshots (`ModelSnapshotWriter`), as the real files in `../shared/corpus/mappings` are.
///
/// The same mapping gives the same bytes: object ids are numbered in order and the document's
/// UUID is derived from its contents.
public enum XcodeMappingWriter {
  /// The `xcmapping.xml` text of a mapping. Both sides must carry their snapshot.
  ///
  /// - Throws: ``MappingReadError`` when a side has no snapshot to embed.
  public static func document(_ mapping: MappingModelSource) throws -> String {
    guard let sourceModel = mapping.source.snapshot, let destinationModel = mapping.destination.snapshot else {
      throw MappingReadError.at(nil, "missing-snapshot", "a mapping model is written with both model versions")
    }
    var objects: [String] = []
    var nextID = 101
    func newID() -> String {
      defer { nextID += 1 }
      return "z\(nextID)"
    }
    let modelID = newID()
    var entityIDs: [String] = []
    for entity in mapping.entityMappings {
      let id = newID()
      entityIDs.append(id)
      var attributeIDs: [String] = []
      var relationshipIDs: [String] = []
      var propertyObjects: [String] = []
      for (kind, properties) in [
        ("ATTRIBUTE", entity.attributeMappings), ("RELATIONSHIP", entity.relationshipMappings),
      ] {
        for property in properties {
          let propertyID = newID()
          if kind == "ATTRIBUTE" { attributeIDs.append(propertyID) } else { relationshipIDs.append(propertyID) }
          var fields: [String] = []
          if let expression = property.expression {
            fields.append(binary("valueexpressiondata", expression.archiveData()))
          }
          fields.append(string("name", property.name))
          if kind == "RELATIONSHIP" {
            fields.append(attribute("autogenerateexpression", type: "bool", property.expression == nil ? "1" : "0"))
            if let keyPath = property.sourceKeyPath { fields.append(string("sourcekeypath", keyPath)) }
            if let through = property.sourceMappingName { fields.append(string("sourcemappingname", through)) }
          }
          fields.append(relationship("entitymapping", type: "1/1", "XDDEVENTITYMAPPING", [id]))
          propertyObjects.append(object("XDDEV\(kind)MAPPING", propertyID, fields))
        }
      }
      var fields: [String] = []
      if let name = entity.name { fields.append(string("name", name)) }
      if let policy = entity.policyClassName { fields.append(string("migrationpolicyclassname", policy)) }
      if let source = entity.sourceEntity { fields.append(string("sourcename", source)) }
      fields.append(string("mappingtypename", "Undefined"))
      fields.append(attribute("mappingnumber", type: "int16", String(entity.number)))
      if let destination = entity.destinationEntity { fields.append(string("destinationname", destination)) }
      if let filter = entity.sourceFilter { fields.append(string("sourcefilterpredicatestring", filter)) }
      fields.append(attribute("autogenerateexpression", type: "bool", "1"))
      if !entity.userInfo.isEmpty { fields.append(binary("userinfodata", UserInfoArchive.encode(entity.userInfo))) }
      fields.append(relationship("mappingmodel", type: "1/1", "XDDEVMAPPINGMODEL", [modelID]))
      fields.append(relationship("attributemappings", type: "0/0", "XDDEVATTRIBUTEMAPPING", attributeIDs))
      fields.append(relationship("relationshipmappings", type: "0/0", "XDDEVRELATIONSHIPMAPPING", relationshipIDs))
      objects.append(object("XDDEVENTITYMAPPING", id, fields))
      objects += propertyObjects
    }
    let model = object(
      "XDDEVMAPPINGMODEL", modelID,
      [
        string("sourcemodelpath", mapping.source.modelPath ?? "\(sourceModel.name).xcdatamodel"),
        binary("sourcemodeldata", ModelSnapshotWriter.encode(sourceModel)),
        string("destinationmodelpath", mapping.destination.modelPath ?? "\(destinationModel.name).xcdatamodel"),
        binary("destinationmodeldata", ModelSnapshotWriter.encode(destinationModel)),
        relationship("entitymappings", type: "0/0", "XDDEVENTITYMAPPING", entityIDs),
      ])
    objects.insert(model, at: 0)
    let body = objects.joined()
    return """
      <?xml version="1.0" standalone="yes"?>
      <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">

      <database>
          <databaseInfo>
              <version>134481920</version>
              <UUID>\(documentUUID(body))</UUID>
              <nextObjectID>\(nextID)</nextObjectID>
              <metadata>
                  <plist version="1.0">
                      <dict>
                          <key>NSPersistenceFrameworkVersion</key>
                          <integer>977</integer>
                          <key>NSStoreModelVersionHashes</key>
                          <dict>
      \(editorModelHashes)
                          </dict>
                          <key>NSStoreModelVersionHashesDigest</key>
                          <string>+Hmc2uYZK6og+Pvx5GUJ7oW75UG4V/ksQanTjfTKUnxyGWJRMtB5tIRgVwGsrd7lz/QR57++wbvWsr6nxwyS0A==</string>
                          <key>NSStoreModelVersionHashesVersion</key>
                          <integer>3</integer>
                          <key>NSStoreModelVersionIdentifiers</key>
                          <array>
                              <string></string>
                          </array>
                      </dict>
                  </plist>
              </metadata>
          </databaseInfo>
      \(body)</database>

      """
  }

  /// Writes `Name.xcmappingmodel/xcmapping.xml`, leaving an identical file untouched.
  ///
  /// - Throws: the file system's error, or ``MappingReadError`` as ``document(_:)`` does.
  public static func write(_ mapping: MappingModelSource, to bundle: URL) throws {
    let text = try document(mapping)
    try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
    let file = bundle.appendingPathComponent("xcmapping.xml")
    let data = Data(text.utf8)
    if (try? Data(contentsOf: file)) == data { return }
    try data.write(to: file, options: .atomic)
  }

  /// The version hashes of the mapping editor's own model (`XDDevMappingModel` and the rest),
  /// the same in every mapping model Xcode writes.
  static let editorModelHashes = [
    ("XDDevAttributeMapping", "0plcXXRN7XHKl5CcF+fwriFmUpON3ZtcI/AfK748aWc="),
    ("XDDevEntityMapping", "qeN1Ym3TkWN1G6dU9RfX6Kd2ccEvcDVWHpd3LpLgboI="),
    ("XDDevMappingModel", "EqtMzvRnVZWkXwBHu4VeVGy8UyoOe+bi67KC79kphlQ="),
    ("XDDevPropertyMapping", "XN33V44TTGY4JETlMoOB5yyTKxB+u4slvDIinv0rtGA="),
    ("XDDevRelationshipMapping", "akYY9LhehVA/mCb4ATLWuI9XGLcjpm14wWL1oEBtIcs="),
  ].map { "                        <key>\($0.0)</key>\n                        <data>\n\t\t\($0.1)\n\t\t</data>" }
    .joined(separator: "\n")

  static func object(_ type: String, _ id: String, _ fields: [String]) -> String {
    "    <object type=\"\(type)\" id=\"\(id)\">\n" + fields.joined() + "    </object>\n"
  }

  static func attribute(_ name: String, type: String, _ text: String) -> String {
    "        <attribute name=\"\(name)\" type=\"\(type)\">\(escape(text))</attribute>\n"
  }

  static func string(_ name: String, _ text: String) -> String {
    attribute(name, type: "string", text)
  }

  static func binary(_ name: String, _ data: Data) -> String {
    let base64 = data.base64EncodedString()
    var lines: [Substring] = []
    var rest = Substring(base64)
    while !rest.isEmpty {
      lines.append(rest.prefix(76))
      rest = rest.dropFirst(76)
    }
    return "        <attribute name=\"\(name)\" type=\"binary\">\(lines.joined(separator: "\n"))\n</attribute>\n"
  }

  static func relationship(_ name: String, type: String, _ destination: String, _ ids: [String]) -> String {
    let refs = ids.isEmpty ? "" : " idrefs=\"\(ids.joined(separator: " "))\""
    return
      "        <relationship name=\"\(name)\" type=\"\(type)\" destination=\"\(destination)\"\(refs)></relationship>\n"
  }

  static func escape(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      default: escaped.append(character)
      }
    }
    return escaped
  }

  /// A UUID made from the document's contents, so the same mapping writes the same file.
  static func documentUUID(_ body: String) -> String {
    var hasher = SHA256()
    hasher.update(Array(body.utf8))
    var bytes = Array(hasher.finalize().prefix(16))
    bytes[6] = (bytes[6] & 0x0F) | 0x50
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    let hex = bytes.map { String(format: "%02X", $0) }.joined()
    let parts = [
      hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4),
      hex.dropFirst(20),
    ]
    return parts.joined(separator: "-")
  }
}
