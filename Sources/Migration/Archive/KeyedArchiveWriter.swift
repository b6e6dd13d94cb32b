import Foundation
import Persistence

/// Builds an `NSKeyedArchiver` archive: the inverse of ``KeyedArchive``, for the files modelc
/// writes (expressions and model snapshots in `mapping new`, compiled mappings in tests).
///
/// Objects are added in the order the caller adds them and strings are stored once, so the
/// same calls give byte-identical archives. An object that others point back at (a model
/// snapshot's owner links) is ``reserve()``d first and ``set(_:className:classHierarchy:fields:)``
/// once its fields are known.
public struct KeyedArchiveWriter: Sendable {
  private var objects: [BinaryPropertyList.Value] = [.string("$null")]
  private var classes: [String: BinaryPropertyList.Value] = [:]
  private var strings: [String: BinaryPropertyList.Value] = [:]

  public init() {}

  /// The reference standing for nil.
  public static let null = BinaryPropertyList.Value.uid(0)

  /// Reserves a slot for an object, to be filled by ``set(_:className:classHierarchy:fields:)``.
  public mutating func reserve() -> BinaryPropertyList.Value {
    objects.append(.null)
    return .uid(UInt64(objects.count - 1))
  }

  /// Fills a reserved slot with an object of `className` (whose superclasses, ending in
  /// `NSObject`, are `classHierarchy`) holding `fields`: inline numbers and booleans, or
  /// references returned by this writer.
  public mutating func set(
    _ reference: BinaryPropertyList.Value, className: String, classHierarchy: [String],
    fields: [(String, BinaryPropertyList.Value)]
  ) {
    guard case .uid(let index) = reference else { preconditionFailure("not a reference: \(reference)") }
    let classReference = classEntry(className, hierarchy: classHierarchy)
    var pairs: [(key: BinaryPropertyList.Value, value: BinaryPropertyList.Value)] = fields.map { (.string($0.0), $0.1) }
    pairs.append((.string("$class"), classReference))
    objects[Int(index)] = .dictionary(pairs)
  }

  /// Adds an object; returns its reference.
  public mutating func object(
    className: String, classHierarchy: [String], fields: [(String, BinaryPropertyList.Value)]
  ) -> BinaryPropertyList.Value {
    let reference = reserve()
    set(reference, className: className, classHierarchy: classHierarchy, fields: fields)
    return reference
  }

  /// Adds a string (once per distinct string); returns its reference.
  public mutating func string(_ string: String) -> BinaryPropertyList.Value {
    if let known = strings[string] { return known }
    objects.append(.string(string))
    let reference = BinaryPropertyList.Value.uid(UInt64(objects.count - 1))
    strings[string] = reference
    return reference
  }

  /// Adds a scalar stored as an object of its own (data, or a number kept by reference).
  public mutating func scalar(_ value: BinaryPropertyList.Value) -> BinaryPropertyList.Value {
    if case .string(let text) = value { return string(text) }
    objects.append(value)
    return .uid(UInt64(objects.count - 1))
  }

  /// Adds an `NSArray` (or `NSMutableArray`, `NSSet`, … by `className`) of references.
  public mutating func array(_ elements: [BinaryPropertyList.Value], className: String = "NSArray")
    -> BinaryPropertyList.Value
  {
    object(
      className: className, classHierarchy: Self.hierarchy(of: className),
      fields: [("NS.objects", .array(elements))])
  }

  /// Adds an `NSDictionary` (or `NSMutableDictionary`) of references.
  public mutating func dictionary(
    _ pairs: [(key: BinaryPropertyList.Value, value: BinaryPropertyList.Value)], className: String = "NSDictionary"
  ) -> BinaryPropertyList.Value {
    object(
      className: className, classHierarchy: Self.hierarchy(of: className),
      fields: [("NS.keys", .array(pairs.map(\.key))), ("NS.objects", .array(pairs.map(\.value)))])
  }

  /// Copies the object graph of another archive into this one (an expression archived on its own,
  /// embedded in a mapping model's archive); returns the reference of its root.
  ///
  /// - Throws: `PropertyListError` when `data` is not a keyed archive with a root.
  public mutating func embed(_ data: Data) throws -> BinaryPropertyList.Value {
    let archive = try KeyedArchive(data: data)
    guard let root = archive.top["root"] else { throw PropertyListError("the embedded archive has no root") }
    let offset = UInt64(objects.count) - 1
    func remap(_ value: BinaryPropertyList.Value) -> BinaryPropertyList.Value {
      switch value {
      case .uid(let index): return .uid(index == 0 ? 0 : index + offset)
      case .array(let values): return .array(values.map(remap))
      case .set(let values): return .set(values.map(remap))
      case .dictionary(let pairs): return .dictionary(pairs.map { (remap($0.key), remap($0.value)) })
      default: return value
      }
    }
    objects += archive.objects.dropFirst().map(remap)
    return remap(.uid(root))
  }

  /// The archive with `root` as its root object, as a binary property list.
  public func data(root: BinaryPropertyList.Value) -> Data {
    BinaryPropertyList.encode(
      .dictionary([
        (.string("$version"), .integer(100_000)),
        (.string("$archiver"), .string("NSKeyedArchiver")),
        (.string("$top"), .dictionary([(.string("root"), root)])),
        (.string("$objects"), .array(objects)),
      ]))
  }

  private mutating func classEntry(_ name: String, hierarchy: [String]) -> BinaryPropertyList.Value {
    if let known = classes[name] { return known }
    objects.append(
      .dictionary([
        (.string("$classname"), .string(name)),
        (.string("$classes"), .array(hierarchy.map(BinaryPropertyList.Value.string))),
      ]))
    let reference = BinaryPropertyList.Value.uid(UInt64(objects.count - 1))
    classes[name] = reference
    return reference
  }

  /// The superclass chains of the Foundation collections this writer adds.
  static func hierarchy(of className: String) -> [String] {
    switch className {
    case "NSMutableArray": ["NSMutableArray", "NSArray", "NSObject"]
    case "NSMutableDictionary": ["NSMutableDictionary", "NSDictionary", "NSObject"]
    case "NSMutableSet": ["NSMutableSet", "NSSet", "NSObject"]
    default: [className, "NSObject"]
    }
  }
}
