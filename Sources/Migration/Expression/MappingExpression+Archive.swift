import Foundation
import Persistence

extension MappingExpression {
  /// The `NSExpressionType` numbers archives store (`NSKeyPathExpression` stores 4, the type of
  /// the function expression it is a subclass of, as Apple's archives show).
  enum ArchivedType {
    static let constant: Int64 = 0
    static let evaluatedObject: Int64 = 1
    static let variable: Int64 = 2
    static let function: Int64 = 4
    static let union: Int64 = 5
    static let intersect: Int64 = 6
    static let minus: Int64 = 7
    static let keyPathSpecifier: Int64 = 10
    static let symbolic: Int64 = 11
    static let aggregate: Int64 = 14
    static let anyKey: Int64 = 15
    static let fetch: Int64 = 50
  }

  /// The selector of the function expression a key path expression is.
  static let valueForKeyPathSelector = "valueForKeyPath:"

  /// Reads an expression from an `NSKeyedArchiver` archive of an `NSExpression` (a mapping
  /// model's `valueexpressiondata` or `sourceexpressiondata`).
  ///
  /// - Throws: `PropertyListError` when the data is not a keyed archive, its root is not an
  ///   expression, it holds an expression class modelc does not read (the message names the
  ///   class), or its objects refer to themselves.
  public init(archive: Data) throws {
    let archive = try KeyedArchive(data: archive)
    guard case .object(let root) = try archive.root() else {
      throw PropertyListError("keyed archive: the root object is not an NSExpression")
    }
    try self.init(archived: root)
  }

  /// Reads an expression from an archived `NSExpression` object (an expression inside a larger
  /// archive, such as a compiled `.cdm`).
  ///
  /// - Throws: `PropertyListError` as ``init(archive:)`` does.
  public init(archived object: KeyedArchive.Object) throws {
    var decoder = Decoder()
    self = try decoder.expression(object)
  }

  /// The expression as an `NSKeyedArchiver` archive, with the classes and keys Apple's archives
  /// use (`NSKeyPathExpression` with `NSOperand`, `NSSelectorName` and a `NSKeyPathSpecifierExpression`
  /// argument, `NSVariableExpression` with `NSVariable`, …), in the object order `NSKeyedArchiver`
  /// writes. The same expression always gives the same bytes, and ``init(archive:)`` reads them
  /// back to an equal expression.
  public func archiveData() -> Data {
    var writer = KeyedArchiveWriter()
    let root = encode(into: &writer)
    return writer.data(root: root)
  }

  /// Adds the expression to an archive being written; returns its reference.
  public func encode(into writer: inout KeyedArchiveWriter) -> BinaryPropertyList.Value {
    let reference = writer.reserve()
    func type(_ number: Int64) -> (String, BinaryPropertyList.Value) { ("NSExpressionType", .integer(number)) }
    func hierarchy(_ name: String, _ superclasses: String...) -> [String] {
      [name] + superclasses + ["NSExpression", "NSObject"]
    }
    switch self {
    case .constant(let constant):
      let field = constant.encode(into: &writer)
      writer.set(
        reference, className: "NSConstantValueExpression", classHierarchy: hierarchy("NSConstantValueExpression"),
        fields: [field, type(ArchivedType.constant)])
    case .evaluatedObject:
      writer.set(
        reference, className: "NSSelfExpression", classHierarchy: hierarchy("NSSelfExpression"),
        fields: [type(ArchivedType.evaluatedObject)])
    case .variable(let name):
      let nameReference = writer.string(name)
      writer.set(
        reference, className: "NSVariableExpression", classHierarchy: hierarchy("NSVariableExpression"),
        fields: [("NSVariable", nameReference), type(ArchivedType.variable)])
    case .keyPath(let base, let keyPath):
      let selector = writer.string(Self.valueForKeyPathSelector)
      let operand = base.encode(into: &writer)
      let arguments = writer.reserve()
      let specifier = writer.reserve()
      let keyPathReference = writer.string(keyPath)
      writer.set(
        specifier, className: "NSKeyPathSpecifierExpression",
        classHierarchy: hierarchy("NSKeyPathSpecifierExpression"),
        fields: [("NSKeyPath", keyPathReference), type(ArchivedType.keyPathSpecifier)])
      writer.set(
        arguments, className: "NSMutableArray", classHierarchy: ["NSMutableArray", "NSArray", "NSObject"],
        fields: [("NS.objects", .array([specifier]))])
      writer.set(
        reference, className: "NSKeyPathExpression",
        classHierarchy: hierarchy("NSKeyPathExpression", "NSFunctionExpression"),
        fields: [
          ("NSOperand", operand), ("NSSelectorName", selector), type(ArchivedType.function),
          ("NSArguments", arguments),
        ])
    case .function(let receiver, let selectorName, let arguments):
      let selector = writer.string(selectorName)
      let operand = receiver.encode(into: &writer)
      let list = Self.encodeList(arguments, className: "NSArray", into: &writer)
      writer.set(
        reference, className: "NSFunctionExpression", classHierarchy: hierarchy("NSFunctionExpression"),
        fields: [
          ("NSOperand", operand), ("NSSelectorName", selector), type(ArchivedType.function), ("NSArguments", list),
        ])
    case .fetch(let request, let context, let countOnly):
      let requestReference = request.encode(into: &writer)
      let contextReference = context.encode(into: &writer)
      writer.set(
        reference, className: "NSFetchRequestExpression", classHierarchy: hierarchy("NSFetchRequestExpression"),
        fields: [
          type(ArchivedType.fetch), ("NSFRExpression", requestReference), ("NSMOCExpression", contextReference),
          ("NSCountOnlyFlag", .bool(countOnly)),
        ])
    case .aggregate(let elements):
      let list = Self.encodeList(elements, className: "NSArray", into: &writer)
      writer.set(
        reference, className: "NSAggregateExpression", classHierarchy: hierarchy("NSAggregateExpression"),
        fields: [type(ArchivedType.aggregate), ("NSCollection", list)])
    case .set(let operation, let left, let right):
      let leftReference = left.encode(into: &writer)
      let rightReference = right.encode(into: &writer)
      let number: Int64 =
        switch operation {
        case .union: ArchivedType.union
        case .intersect: ArchivedType.intersect
        case .minus: ArchivedType.minus
        }
      writer.set(
        reference, className: "NSSetExpression", classHierarchy: hierarchy("NSSetExpression"),
        fields: [type(number), ("NSLeftExpression", leftReference), ("NSRightExpression", rightReference)])
    case .symbol(let token):
      let tokenReference = writer.string(token)
      writer.set(
        reference, className: "NSSymbolicExpression", classHierarchy: hierarchy("NSSymbolicExpression"),
        fields: [type(ArchivedType.symbolic), ("NSToken", tokenReference)])
    case .anyKey:
      writer.set(
        reference, className: "NSAnyKeyExpression", classHierarchy: hierarchy("NSAnyKeyExpression"),
        fields: [type(ArchivedType.anyKey)])
    }
    return reference
  }

  /// An `NSArray` of expressions, reserved before its elements as `NSKeyedArchiver` does.
  static func encodeList(
    _ elements: [MappingExpression], className: String, into writer: inout KeyedArchiveWriter
  ) -> BinaryPropertyList.Value {
    let list = writer.reserve()
    let references = elements.map { $0.encode(into: &writer) }
    writer.set(
      list, className: className, classHierarchy: KeyedArchiveWriter.hierarchy(of: className),
      fields: [("NS.objects", .array(references))])
    return list
  }

  /// Decodes archived expressions, refusing objects that contain themselves.
  private struct Decoder {
    /// The objects being decoded, outermost first: one seen again is a cycle.
    var path: [Int] = []

    static let unsupported: [String: String] = [
      "NSSubqueryExpression": "SUBQUERY(…) holds a predicate",
      "NSTernaryExpression": "TERNARY(…) holds a predicate",
      "NSBlockExpression": "a block cannot be archived meaningfully",
      "NSVariableAssignmentExpression": "a variable assignment is only meaningful inside a predicate",
    ]

    mutating func expression(_ object: KeyedArchive.Object) throws -> MappingExpression {
      guard !path.contains(object.index) else {
        throw PropertyListError(
          "keyed archive: the \(object.className) (object \(object.index)) contains itself; the expression is damaged")
      }
      guard path.count < BinaryPropertyList.maximumDepth else {
        throw PropertyListError(
          "keyed archive: expressions nested deeper than \(BinaryPropertyList.maximumDepth) levels")
      }
      path.append(object.index)
      defer { path.removeLast() }
      switch object.className {
      case "NSConstantValueExpression":
        if let className = try object.string(forKey: "NSConstantValueClassName"),
          try object.value(forKey: "NSConstantValue") == nil
        {
          return .constant(.className(className))
        }
        return try constant(object.value(forKey: "NSConstantValue"), in: object)
      case "NSSelfExpression":
        return .evaluatedObject
      case "NSVariableExpression":
        guard let name = try object.string(forKey: "NSVariable") else { throw missing("NSVariable", object) }
        return .variable(name)
      case "NSKeyPathSpecifierExpression":
        // On its own (not as the argument of a key path expression): a key path on SELF.
        return .keyPath(.evaluatedObject, try keyPath(object))
      case "NSKeyPathExpression", "NSFunctionExpression":
        return try function(object)
      case "NSFetchRequestExpression":
        guard let request = try object.object(forKey: "NSFRExpression") else { throw missing("NSFRExpression", object) }
        guard let context = try object.object(forKey: "NSMOCExpression") else {
          throw missing("NSMOCExpression", object)
        }
        return .fetch(
          request: try expression(request), context: try expression(context),
          countOnly: try object.bool(forKey: "NSCountOnlyFlag") ?? false)
      case "NSAggregateExpression":
        return .aggregate(try list(object, key: "NSCollection"))
      case "NSSetExpression":
        let operation: SetOperation
        switch try object.integer(forKey: "NSExpressionType") {
        case ArchivedType.union: operation = .union
        case ArchivedType.intersect: operation = .intersect
        case ArchivedType.minus: operation = .minus
        case let other:
          throw PropertyListError(
            "keyed archive: an NSSetExpression of NSExpressionType \(other.map(String.init) ?? "none"); expected 5, 6 or 7"
          )
        }
        guard let left = try object.object(forKey: "NSLeftExpression") else {
          throw missing("NSLeftExpression", object)
        }
        guard let right = try object.object(forKey: "NSRightExpression") else {
          throw missing("NSRightExpression", object)
        }
        return .set(operation, try expression(left), try expression(right))
      case "NSSymbolicExpression":
        guard let token = try object.string(forKey: "NSToken") else { throw missing("NSToken", object) }
        return .symbol(token)
      case "NSAnyKeyExpression":
        return .anyKey
      default:
        if let reason = Self.unsupported[object.className] {
          throw PropertyListError("keyed archive: an \(object.className) is not supported by modelc (\(reason))")
        }
        throw PropertyListError(
          "keyed archive: unknown expression class '\(object.className)'; modelc reads NSConstantValueExpression, NSSelfExpression, NSVariableExpression, NSKeyPathExpression, NSFunctionExpression, NSFetchRequestExpression, NSAggregateExpression, NSSetExpression, NSSymbolicExpression and NSAnyKeyExpression"
        )
      }
    }

    mutating func function(_ object: KeyedArchive.Object) throws -> MappingExpression {
      guard let selector = try object.string(forKey: "NSSelectorName") else { throw missing("NSSelectorName", object) }
      guard let operandObject = try object.object(forKey: "NSOperand") else { throw missing("NSOperand", object) }
      let operand = try expression(operandObject)
      let rawArguments = try object.array(forKey: "NSArguments") ?? []
      if selector == MappingExpression.valueForKeyPathSelector, rawArguments.count == 1,
        case .object(let argument) = rawArguments[0], argument.className == "NSKeyPathSpecifierExpression"
      {
        guard !path.contains(argument.index) else {
          throw PropertyListError(
            "keyed archive: the NSKeyPathSpecifierExpression (object \(argument.index)) contains itself")
        }
        return .keyPath(operand, try keyPath(argument))
      }
      if object.className == "NSKeyPathExpression" {
        throw PropertyListError(
          "keyed archive: an NSKeyPathExpression whose argument is not one NSKeyPathSpecifierExpression")
      }
      var arguments: [MappingExpression] = []
      for raw in rawArguments { arguments.append(try element(raw, of: object)) }
      return .function(operand, selector: selector, arguments: arguments)
    }

    func keyPath(_ object: KeyedArchive.Object) throws -> String {
      guard let keyPath = try object.string(forKey: "NSKeyPath") else { throw missing("NSKeyPath", object) }
      return keyPath
    }

    mutating func list(_ object: KeyedArchive.Object, key: String) throws -> [MappingExpression] {
      guard let value = try object.value(forKey: key) else { return [] }
      guard case .array(let elements) = value else {
        throw PropertyListError("keyed archive: '\(key)' of an \(object.className) is not a collection")
      }
      var result: [MappingExpression] = []
      for raw in elements { result.append(try element(raw, of: object)) }
      return result
    }

    mutating func element(_ value: KeyedArchive.Value, of owner: KeyedArchive.Object) throws -> MappingExpression {
      guard case .object(let object) = value else {
        throw PropertyListError("keyed archive: an \(owner.className) holds a non-expression among its expressions")
      }
      return try expression(object)
    }

    func constant(_ value: KeyedArchive.Value?, in object: KeyedArchive.Object) throws -> MappingExpression {
      guard let value else { return .constant(.null) }
      switch value {
      case .null: return .constant(.null)
      case .string(let string): return .constant(.string(string))
      case .integer(let number): return .constant(.integer(number))
      case .real(let number): return .constant(.double(number))
      case .bool(let flag): return .constant(.bool(flag))
      case .data(let data): return .constant(.data(data))
      case .date(let date): return .constant(.date(date))
      case .array(let elements):
        return .aggregate(try elements.map { try constant($0, in: object) })
      case .dictionary:
        throw PropertyListError("keyed archive: an NSConstantValueExpression holding a dictionary is not supported")
      case .object(let inner):
        throw PropertyListError(
          "keyed archive: an NSConstantValueExpression holding an \(inner.className) is not supported; constants are strings, numbers, booleans, dates, data or nil"
        )
      }
    }

    func missing(_ key: String, _ object: KeyedArchive.Object) -> PropertyListError {
      PropertyListError("keyed archive: an \(object.className) without '\(key)'")
    }
  }
}

extension MappingExpression.Constant {
  /// The `NSConstantValue` (or `NSConstantValueClassName`) field of the constant, its value
  /// added to the archive as `NSKeyedArchiver` stores it (numbers and booleans as objects of
  /// their own, strings once).
  func encode(into writer: inout KeyedArchiveWriter) -> (String, BinaryPropertyList.Value) {
    switch self {
    case .null: return ("NSConstantValue", KeyedArchiveWriter.null)
    case .string(let string): return ("NSConstantValue", writer.string(string))
    case .integer(let number): return ("NSConstantValue", writer.scalar(.integer(number)))
    case .double(let number): return ("NSConstantValue", writer.scalar(.real(number)))
    case .bool(let flag): return ("NSConstantValue", writer.scalar(.bool(flag)))
    case .data(let data): return ("NSConstantValue", writer.scalar(.data(data)))
    case .date(let date):
      let reference = writer.object(
        className: "NSDate", classHierarchy: ["NSDate", "NSObject"],
        fields: [("NS.time", .real(date.timeIntervalSinceReferenceDate))])
      return ("NSConstantValue", reference)
    case .className(let name): return ("NSConstantValueClassName", writer.string(name))
    }
  }
}
