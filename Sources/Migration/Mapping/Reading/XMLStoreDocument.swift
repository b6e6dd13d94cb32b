import DataModel
import Foundation

/// A document of Core Data's XML store type, as Xcode writes `xcmapping.xml`: `<object>`
/// elements of a type, each with typed `<attribute>`s and `<relationship>`s whose `idrefs` name
/// other objects.
///
/// Only the structure is read here; what the objects mean is ``XcodeMappingReader``'s business.
/// Every object, attribute and relationship keeps its position so that diagnostics point at it.
struct XMLStoreDocument {
  /// One `<attribute name=… type=…>` of an object.
  struct Attribute {
    var type: String
    var text: String
    var location: SourceLocation
  }

  /// One `<relationship name=… idrefs=…>` of an object.
  struct Relationship {
    var idrefs: [String]
    var location: SourceLocation
  }

  /// One `<object type=… id=…>`.
  struct StoredObject {
    var type: String
    var id: String
    var attributes: [String: Attribute]
    var relationships: [String: Relationship]
    var location: SourceLocation

    /// A string attribute; nil when absent.
    func string(_ name: String) -> String? {
      attributes[name]?.text
    }
  }

  /// The document's path, as given.
  var path: String
  /// The objects, by id, and in document order.
  var objectsByID: [String: StoredObject]
  var objectIDs: [String]
  /// The root element's location, for problems of the whole document.
  var rootLocation: SourceLocation

  /// Parses a document.
  ///
  /// - Throws: ``MappingReadError`` for XML that is not well-formed, a root that is not
  ///   `<database>`, an object without a type or id, or an id used twice.
  init(bytes: [UInt8], path: String) throws(MappingReadError) {
    self.path = path
    let lines = LineTable(bytes: bytes)
    func location(_ offset: Int) -> SourceLocation {
      let (line, column) = lines.position(of: offset)
      return SourceLocation(file: path, line: line, column: column)
    }
    let root: XMLSourceElement
    do {
      root = try XMLSourceParser.parse(bytes)
    } catch {
      throw .at(
        location(error.offset), "xml-syntax", "the mapping model is not well-formed XML: \(error.message)",
        fix: "restore xcmapping.xml from version control, or recreate the mapping model in Xcode")
    }
    rootLocation = location(root.offset)
    guard root.name == "database" else {
      throw .at(
        rootLocation, "not-a-mapping-model",
        "the root element is <\(root.name)>, not <database>: this is not an Xcode mapping model (xcmapping.xml)",
        fix: "pass an .xcmappingmodel bundle, its xcmapping.xml, or a compiled .cdm file")
    }
    var objects: [String: StoredObject] = [:]
    var order: [String] = []
    for element in root.children where element.name == "object" {
      let here = location(element.offset)
      guard let type = element.attribute("type"), let id = element.attribute("id"), !id.isEmpty else {
        throw .at(here, "malformed-object", "an <object> without a type or an id")
      }
      var attributes: [String: Attribute] = [:]
      var relationships: [String: Relationship] = [:]
      for child in element.children {
        guard let name = child.attribute("name") else {
          throw .at(location(child.offset), "malformed-object", "a <\(child.name)> of object \(id) without a name")
        }
        switch child.name {
        case "attribute":
          attributes[name] = Attribute(
            type: child.attribute("type") ?? "string", text: child.text, location: location(child.offset))
        case "relationship":
          let refs = (child.attribute("idrefs") ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
          relationships[name] = Relationship(idrefs: refs, location: location(child.offset))
        default:
          continue
        }
      }
      guard objects[id] == nil else {
        throw .at(here, "duplicate-object-id", "two objects have the id '\(id)'")
      }
      objects[id] = StoredObject(
        type: type, id: id, attributes: attributes, relationships: relationships, location: here)
      order.append(id)
    }
    self.objectsByID = objects
    self.objectIDs = order
  }

  /// The objects a relationship of `object` points at, in `idrefs` order.
  ///
  /// - Throws: ``MappingReadError`` when an id names no object, or an object of another type.
  func targets(of object: StoredObject, _ relationship: String, type: String) throws(MappingReadError) -> [StoredObject]
  {
    guard let link = object.relationships[relationship] else { return [] }
    var found: [StoredObject] = []
    for id in link.idrefs {
      guard let target = objectsByID[id] else {
        throw .at(
          link.location, "dangling-idref",
          "relationship '\(relationship)' of object \(object.id) points at '\(id)', which is not in the file",
          fix: "the file was damaged or merged by hand; reopen and save the mapping model in Xcode")
      }
      guard target.type == type else {
        throw .at(
          link.location, "dangling-idref",
          "relationship '\(relationship)' of object \(object.id) points at '\(id)', a \(target.type), not a \(type)")
      }
      found.append(target)
    }
    return found
  }

  /// The bytes of a base64 `binary` attribute.
  ///
  /// - Throws: ``MappingReadError`` when the text is not base64.
  func binary(_ attribute: Attribute, of object: StoredObject, named name: String) throws(MappingReadError) -> Data {
    let compact = attribute.text.filter { !$0.isWhitespace }
    guard let data = Data(base64Encoded: compact) else {
      throw .at(
        attribute.location, "bad-binary",
        "attribute '\(name)' of object \(object.id) is not base64 text",
        fix: "the file was damaged; reopen and save the mapping model in Xcode")
    }
    return data
  }
}
