import Foundation
import Persistence

/// An `NSKeyedArchiver` archive, read without Objective-C: the object graph of a binary
/// property list whose `$objects` point at each other by `BinaryPropertyList.Value.uid(_:)`.
///
/// Mapping models store their expressions, user info and model snapshots this way, and compiled
/// `.cdm` files are one archive of `NSMappingModel`. Foundation's collection classes (`NSArray`,
/// `NSDictionary`, `NSSet`, `NSString`, `NSData`, `NSDate`, `NSNumber`, their mutable and ordered
/// variants) decode into ``Value``; every other class stays an ``Object`` whose fields are read
/// on demand, so archives whose objects point back at their owners (model snapshots do) read
/// without recursion.
public struct KeyedArchive: Sendable {
  /// The archive's `$objects`, index 0 being `$null`.
  public let objects: [BinaryPropertyList.Value]
  /// The archive's `$top` entries (`root` for archives written with `archivedData(withRootObject:)`).
  public let top: [String: UInt64]

  /// Reads a keyed archive from a binary property list.
  ///
  /// - Throws: `PropertyListError` when the data is not a binary property list, or not a keyed
  ///   archive (`$archiver`, `$objects` and `$top` missing or of the wrong kind).
  public init(data: Data) throws {
    let plist = try BinaryPropertyList.decode(data)
    guard case .dictionary = plist else {
      throw PropertyListError("not a keyed archive: the property list is not a dictionary")
    }
    guard plist["$archiver"] == .string("NSKeyedArchiver") else {
      throw PropertyListError("not a keyed archive: no '$archiver' = NSKeyedArchiver")
    }
    guard case .array(let objects) = plist["$objects"], !objects.isEmpty else {
      throw PropertyListError("not a keyed archive: '$objects' missing")
    }
    guard case .dictionary(let topPairs) = plist["$top"] else {
      throw PropertyListError("not a keyed archive: '$top' missing")
    }
    var top: [String: UInt64] = [:]
    for (key, value) in topPairs {
      guard case .string(let name) = key, case .uid(let index) = value, index < objects.count else {
        throw PropertyListError("not a keyed archive: '$top' holds something other than object references")
      }
      top[name] = index
    }
    self.objects = objects
    self.top = top
  }

  /// The object archived under `$top`'s `root` key.
  ///
  /// - Throws: `PropertyListError` when there is no root.
  public func root() throws -> Value {
    guard let index = top["root"] else { throw PropertyListError("keyed archive without a 'root' object") }
    return try value(of: .uid(index))
  }

  /// A decoded value of an archive.
  public indirect enum Value: Sendable {
    case null
    case string(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    case data(Data)
    case date(Date)
    /// `NSArray`, `NSSet`, `NSOrderedSet` and their mutable variants, in archive order.
    case array([Value])
    /// `NSDictionary` and `NSMutableDictionary`, in archive order.
    case dictionary([(key: Value, value: Value)])
    /// An object of any other class.
    case object(Object)

    /// The string, when the value is one.
    public var string: String? {
      if case .string(let string) = self { return string }
      return nil
    }

    /// The object, when the value is one.
    public var object: Object? {
      if case .object(let object) = self { return object }
      return nil
    }
  }

  /// An archived object of a class that is not one of Foundation's collections or scalars.
  public struct Object: Sendable {
    /// The archive the object belongs to.
    public let archive: KeyedArchive
    /// The object's index in `$objects`.
    public let index: Int
    /// The object's class (`$classname`).
    public let className: String
    /// The class and its superclasses (`$classes`).
    public let classHierarchy: [String]
    /// The object's encoded fields, as stored (references not followed).
    public let fields: [String: BinaryPropertyList.Value]

    /// Whether the object's class is `name` or a subclass of it.
    public func isKind(of name: String) -> Bool {
      className == name || classHierarchy.contains(name)
    }

    /// The value of a field, references followed; nil when the field is absent or `$null`.
    ///
    /// - Throws: `PropertyListError` when the field points at something unreadable.
    public func value(forKey key: String) throws -> Value? {
      guard let raw = fields[key] else { return nil }
      let value = try archive.value(of: raw)
      if case .null = value { return nil }
      return value
    }

    /// A string field; nil when absent.
    ///
    /// - Throws: `PropertyListError` when the field is not a string.
    public func string(forKey key: String) throws -> String? {
      guard let value = try value(forKey: key) else { return nil }
      guard case .string(let string) = value else { throw mismatch(key, expected: "a string") }
      return string
    }

    /// An integer field; nil when absent.
    ///
    /// - Throws: `PropertyListError` when the field is not a number.
    public func integer(forKey key: String) throws -> Int64? {
      guard let value = try value(forKey: key) else { return nil }
      switch value {
      case .integer(let number): return number
      case .bool(let flag): return flag ? 1 : 0
      case .real(let number) where number.rounded() == number && abs(number) < 9e18: return Int64(number)
      default: throw mismatch(key, expected: "an integer")
      }
    }

    /// A boolean field; nil when absent. Archives store booleans as booleans or as 0/1.
    ///
    /// - Throws: `PropertyListError` when the field is neither.
    public func bool(forKey key: String) throws -> Bool? {
      guard let value = try value(forKey: key) else { return nil }
      switch value {
      case .bool(let flag): return flag
      case .integer(let number): return number != 0
      case .string("YES"): return true
      case .string("NO"): return false
      default: throw mismatch(key, expected: "a boolean")
      }
    }

    /// An array field (`NSArray`, `NSSet`, …); nil when absent.
    ///
    /// - Throws: `PropertyListError` when the field is not a collection.
    public func array(forKey key: String) throws -> [Value]? {
      guard let value = try value(forKey: key) else { return nil }
      guard case .array(let elements) = value else { throw mismatch(key, expected: "an array") }
      return elements
    }

    /// An object field; nil when absent.
    ///
    /// - Throws: `PropertyListError` when the field is not an object.
    public func object(forKey key: String) throws -> Object? {
      guard let value = try value(forKey: key) else { return nil }
      guard case .object(let object) = value else { throw mismatch(key, expected: "an object") }
      return object
    }

    func mismatch(_ key: String, expected: String) -> PropertyListError {
      PropertyListError("keyed archive: '\(key)' of an \(className) is not \(expected)")
    }
  }

  /// Decodes a stored value, following a reference.
  ///
  /// - Throws: `PropertyListError` when a reference points nowhere or a collection is malformed.
  public func value(of raw: BinaryPropertyList.Value) throws -> Value {
    try value(of: raw, depth: 0)
  }

  private func value(of raw: BinaryPropertyList.Value, depth: Int) throws -> Value {
    guard depth < BinaryPropertyList.maximumDepth else {
      throw PropertyListError("keyed archive nested deeper than \(BinaryPropertyList.maximumDepth) levels")
    }
    switch raw {
    case .uid(let reference):
      guard reference < objects.count else {
        throw PropertyListError("keyed archive: a reference to object \(reference) of \(objects.count)")
      }
      let stored = objects[Int(reference)]
      if case .uid = stored { throw PropertyListError("keyed archive: object \(reference) is a bare reference") }
      if case .dictionary = stored, stored["$class"] != nil {
        return try decodeInstance(stored, index: Int(reference), depth: depth)
      }
      if stored == .string("$null") { return .null }
      return try value(of: stored, depth: depth + 1)
    case .null: return .null
    case .string(let string): return .string(string)
    case .integer(let number): return .integer(number)
    case .real(let number): return .real(number)
    case .bool(let flag): return .bool(flag)
    case .data(let data): return .data(data)
    case .date(let date): return .date(date)
    case .array(let elements), .set(let elements):
      return .array(try elements.map { try value(of: $0, depth: depth + 1) })
    case .dictionary(let pairs):
      return .dictionary(
        try pairs.map { (try value(of: $0.key, depth: depth + 1), try value(of: $0.value, depth: depth + 1)) })
    }
  }

  private func decodeInstance(_ stored: BinaryPropertyList.Value, index: Int, depth: Int) throws -> Value {
    guard case .dictionary(let pairs) = stored, case .uid(let classReference) = stored["$class"],
      classReference < objects.count
    else { throw PropertyListError("keyed archive: object \(index) has no readable '$class'") }
    let classInfo = objects[Int(classReference)]
    guard case .string(let className) = classInfo["$classname"] else {
      throw PropertyListError("keyed archive: object \(index)'s class has no '$classname'")
    }
    var hierarchy: [String] = []
    if case .array(let names) = classInfo["$classes"] {
      hierarchy = names.compactMap { if case .string(let name) = $0 { name } else { nil } }
    }
    var fields: [String: BinaryPropertyList.Value] = [:]
    for (key, value) in pairs {
      guard case .string(let name) = key else {
        throw PropertyListError("keyed archive: object \(index) has a key that is not a string")
      }
      fields[name] = value
    }
    let object = Object(archive: self, index: index, className: className, classHierarchy: hierarchy, fields: fields)
    let foundation = Set(hierarchy + [className])
    func elements(_ key: String) throws -> [Value] {
      guard let raw = fields[key] else { return [] }
      guard case .array(let items) = raw else { throw object.mismatch(key, expected: "a list") }
      return try items.map { try value(of: $0, depth: depth + 1) }
    }
    if !foundation.isDisjoint(with: ["NSArray", "NSSet", "NSOrderedSet"]) {
      return .array(try elements("NS.objects"))
    }
    if foundation.contains("NSDictionary") {
      let keys = try elements("NS.keys")
      let values = try elements("NS.objects")
      guard keys.count == values.count else {
        throw PropertyListError("keyed archive: a dictionary with \(keys.count) keys and \(values.count) values")
      }
      return .dictionary(Array(zip(keys, values)).map { (key: $0.0, value: $0.1) })
    }
    if foundation.contains("NSString") {
      if case .string(let string) = fields["NS.string"] { return .string(string) }
      if case .data(let bytes) = fields["NS.bytes"] { return .string(String(decoding: bytes, as: UTF8.self)) }
      return try object.value(forKey: "NS.string") ?? .string("")
    }
    if foundation.contains("NSData") {
      guard let data = try object.value(forKey: "NS.data") else { return .data(Data()) }
      return data
    }
    if foundation.contains("NSDate") {
      guard case .real(let seconds) = fields["NS.time"] else { throw object.mismatch("NS.time", expected: "a number") }
      return .date(Date(timeIntervalSinceReferenceDate: seconds))
    }
    return .object(object)
  }
}
