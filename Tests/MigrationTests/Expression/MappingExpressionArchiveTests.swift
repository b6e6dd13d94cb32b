import Foundation
import Migration
import Persistence
import Testing

/// Archives built object by object, in the layout Apple's `NSKeyedArchiver` writes for each
/// expression class (as the corpus's mapping models show), independently of
/// ``MappingExpression/archiveData()``.
struct ExpressionArchiveFixture {
  var writer = KeyedArchiveWriter()

  static func hierarchy(_ name: String, _ middle: String...) -> [String] {
    [name] + middle + ["NSExpression", "NSObject"]
  }

  mutating func variable(_ name: String) -> BinaryPropertyList.Value {
    let reference = writer.reserve()
    let nameReference = writer.string(name)
    writer.set(
      reference, className: "NSVariableExpression", classHierarchy: Self.hierarchy("NSVariableExpression"),
      fields: [("NSVariable", nameReference), ("NSExpressionType", .integer(2))])
    return reference
  }

  mutating func constant(_ value: BinaryPropertyList.Value?) -> BinaryPropertyList.Value {
    let reference = writer.reserve()
    let valueReference = value.map { writer.scalar($0) } ?? KeyedArchiveWriter.null
    writer.set(
      reference, className: "NSConstantValueExpression", classHierarchy: Self.hierarchy("NSConstantValueExpression"),
      fields: [("NSConstantValue", valueReference), ("NSExpressionType", .integer(0))])
    return reference
  }

  mutating func keyPath(_ operand: (inout ExpressionArchiveFixture) -> BinaryPropertyList.Value, _ path: String)
    -> BinaryPropertyList.Value
  {
    let reference = writer.reserve()
    let selector = writer.string("valueForKeyPath:")
    let operandReference = operand(&self)
    let arguments = writer.reserve()
    let specifier = writer.reserve()
    let pathReference = writer.string(path)
    writer.set(
      specifier, className: "NSKeyPathSpecifierExpression",
      classHierarchy: Self.hierarchy("NSKeyPathSpecifierExpression"),
      fields: [("NSKeyPath", pathReference), ("NSExpressionType", .integer(10))])
    writer.set(
      arguments, className: "NSMutableArray", classHierarchy: ["NSMutableArray", "NSArray", "NSObject"],
      fields: [("NS.objects", .array([specifier]))])
    writer.set(
      reference, className: "NSKeyPathExpression",
      classHierarchy: Self.hierarchy("NSKeyPathExpression", "NSFunctionExpression"),
      fields: [
        ("NSOperand", operandReference), ("NSSelectorName", selector), ("NSExpressionType", .integer(4)),
        ("NSArguments", arguments),
      ])
    return reference
  }

  mutating func function(
    _ operand: (inout ExpressionArchiveFixture) -> BinaryPropertyList.Value, _ selectorName: String,
    _ arguments: [(inout ExpressionArchiveFixture) -> BinaryPropertyList.Value]
  ) -> BinaryPropertyList.Value {
    let reference = writer.reserve()
    let selector = writer.string(selectorName)
    let operandReference = operand(&self)
    var elements: [BinaryPropertyList.Value] = []
    for argument in arguments { elements.append(argument(&self)) }
    let list = writer.array(elements)
    writer.set(
      reference, className: "NSFunctionExpression", classHierarchy: Self.hierarchy("NSFunctionExpression"),
      fields: [
        ("NSOperand", operandReference), ("NSSelectorName", selector), ("NSExpressionType", .integer(4)),
        ("NSArguments", list),
      ])
    return reference
  }

  mutating func plain(_ className: String, type: Int64, _ fields: [(String, BinaryPropertyList.Value)])
    -> BinaryPropertyList.Value
  {
    writer.object(
      className: className, classHierarchy: Self.hierarchy(className),
      fields: fields + [("NSExpressionType", .integer(type))])
  }

  static func archive(_ build: (inout ExpressionArchiveFixture) -> BinaryPropertyList.Value) -> Data {
    var fixture = ExpressionArchiveFixture()
    let root = build(&fixture)
    return fixture.writer.data(root: root)
  }
}

@Suite("Mapping expressions in keyed archives")
struct MappingExpressionArchiveTests {
  /// One archive of every expression class, and what it reads as.
  static let fixtures: [(String, Data, MappingExpression)] = [
    (
      "NSKeyPathExpression on a variable",
      ExpressionArchiveFixture.archive { $0.keyPath({ $0.variable("source") }, "numberOfFlagella") },
      .source("numberOfFlagella")
    ),
    (
      "NSConstantValueExpression, boolean", ExpressionArchiveFixture.archive { $0.constant(.bool(true)) },
      .constant(.bool(true))
    ),
    (
      "NSConstantValueExpression, integer", ExpressionArchiveFixture.archive { $0.constant(.integer(7)) },
      .constant(.integer(7))
    ),
    (
      "NSConstantValueExpression, real", ExpressionArchiveFixture.archive { $0.constant(.real(0.25)) },
      .constant(.double(0.25))
    ),
    (
      "NSConstantValueExpression, string", ExpressionArchiveFixture.archive { $0.constant(.string("privacy")) },
      .string("privacy")
    ),
    (
      "NSConstantValueExpression, data", ExpressionArchiveFixture.archive { $0.constant(.data(Data([0, 255]))) },
      .constant(.data(Data([0, 255])))
    ),
    ("NSConstantValueExpression, nil", ExpressionArchiveFixture.archive { $0.constant(nil) }, .null),
    (
      "NSConstantValueExpression, date",
      ExpressionArchiveFixture.archive {
        let reference = $0.writer.reserve()
        let date = $0.writer.object(
          className: "NSDate", classHierarchy: ["NSDate", "NSObject"], fields: [("NS.time", .real(1000.5))])
        $0.writer.set(
          reference, className: "NSConstantValueExpression",
          classHierarchy: ExpressionArchiveFixture.hierarchy("NSConstantValueExpression"),
          fields: [("NSConstantValue", date), ("NSExpressionType", .integer(0))])
        return reference
      },
      .constant(.date(Date(timeIntervalSinceReferenceDate: 1000.5)))
    ),
    (
      "NSConstantValueExpression, class",
      ExpressionArchiveFixture.archive {
        let name = $0.writer.string("_NSPredicateUtilities")
        return $0.plain("NSConstantValueExpression", type: 0, [("NSConstantValueClassName", name)])
      },
      .constant(.className("_NSPredicateUtilities"))
    ),
    (
      "NSSelfExpression", ExpressionArchiveFixture.archive { $0.plain("NSSelfExpression", type: 1, []) },
      .evaluatedObject
    ),
    (
      "NSVariableExpression", ExpressionArchiveFixture.archive { $0.variable("entityPolicy") },
      .variable("entityPolicy")
    ),
    (
      "NSKeyPathSpecifierExpression alone",
      ExpressionArchiveFixture.archive {
        let path = $0.writer.string("name")
        return $0.plain("NSKeyPathSpecifierExpression", type: 10, [("NSKeyPath", path)])
      },
      .keyPath(.evaluatedObject, "name")
    ),
    (
      "NSFunctionExpression",
      ExpressionArchiveFixture.archive {
        $0.function(
          { $0.variable("manager") }, "destinationInstancesForEntityMappingNamed:sourceInstances:",
          [{ $0.constant(.string("PersonToPerson")) }, { $0.keyPath({ $0.variable("source") }, "owner") }])
      },
      .destinationInstances(entityMapping: "PersonToPerson", sourceRelationship: "owner")
    ),
    (
      "NSFetchRequestExpression",
      ExpressionArchiveFixture.archive { fixture in
        let request = fixture.function(
          { $0.variable("manager") }, "fetchRequestForSourceEntityNamed:predicateString:",
          [{ $0.constant(.string("Car")) }, { $0.constant(.string("TRUEPREDICATE")) }])
        let context = fixture.keyPath({ $0.variable("manager") }, "sourceContext")
        return fixture.plain(
          "NSFetchRequestExpression", type: 50,
          [("NSFRExpression", request), ("NSMOCExpression", context), ("NSCountOnlyFlag", .bool(false))])
      },
      .sourceFetch(entity: "Car")
    ),
    (
      "NSAggregateExpression",
      ExpressionArchiveFixture.archive { fixture in
        let one = fixture.constant(.integer(1))
        let two = fixture.constant(.string("b"))
        let list = fixture.writer.array([one, two])
        return fixture.plain("NSAggregateExpression", type: 14, [("NSCollection", list)])
      },
      .aggregate([.constant(.integer(1)), .string("b")])
    ),
    (
      "NSSetExpression",
      ExpressionArchiveFixture.archive { fixture in
        let left = fixture.keyPath({ $0.variable("source") }, "a")
        let right = fixture.keyPath({ $0.variable("source") }, "b")
        return fixture.plain("NSSetExpression", type: 7, [("NSLeftExpression", left), ("NSRightExpression", right)])
      },
      .set(.minus, .source("a"), .source("b"))
    ),
    (
      "NSSymbolicExpression",
      ExpressionArchiveFixture.archive {
        let token = $0.writer.string("FIRST")
        return $0.plain("NSSymbolicExpression", type: 11, [("NSToken", token)])
      },
      .symbol("FIRST")
    ),
    ("NSAnyKeyExpression", ExpressionArchiveFixture.archive { $0.plain("NSAnyKeyExpression", type: 15, []) }, .anyKey),
  ]

  @Test("Every expression class reads from Apple's layout")
  func decodesEveryClass() throws {
    for (name, data, expected) in Self.fixtures {
      #expect(try MappingExpression(archive: data) == expected, "\(name)")
    }
  }

  @Test("Every expression writes and reads back equal, and the same bytes twice")
  func roundTrips() throws {
    var expressions = Self.fixtures.map(\.2)
    expressions += MappingExpressionFormatTests.printed.map(\.0)
    for expression in expressions {
      let data = expression.archiveData()
      let decoded = try MappingExpression(archive: data)
      #expect(decoded == expression, "\(expression)")
      #expect(decoded.archiveData() == data, "\(expression)")
    }
  }

  @Test("A key path writes exactly the objects and keys Apple's archive holds")
  func keyPathLayout() throws {
    let ours = MappingExpression.source("numberOfFlagella").archiveData()
    let apple = ExpressionArchiveFixture.archive { $0.keyPath({ $0.variable("source") }, "numberOfFlagella") }
    #expect(ours == apple)
    let archive = try KeyedArchive(data: ours)
    let root = try #require(try archive.root().object)
    #expect(root.className == "NSKeyPathExpression")
    #expect(root.classHierarchy == ["NSKeyPathExpression", "NSFunctionExpression", "NSExpression", "NSObject"])
    #expect(try root.string(forKey: "NSSelectorName") == "valueForKeyPath:")
    #expect(try root.integer(forKey: "NSExpressionType") == 4)
    #expect(try root.object(forKey: "NSOperand")?.string(forKey: "NSVariable") == "source")
    let arguments = try #require(try root.array(forKey: "NSArguments"))
    #expect(try arguments.first?.object?.string(forKey: "NSKeyPath") == "numberOfFlagella")
  }

  @Test("The engine's forms are recognized")
  func accessors() throws {
    let relationship = MappingExpression.destinationInstances(
      entityMapping: "PersonToPerson", sourceRelationship: "owner")
    #expect(relationship.destinationInstances?.lookup == .entityMapping("PersonToPerson"))
    #expect(relationship.destinationInstances?.sourceRelationship == "owner")
    let bySource = MappingExpression.destinationInstances(sourceRelationshipNamed: "group")
    #expect(bySource.destinationInstances?.lookup == .sourceRelationship("group"))
    #expect(MappingExpression.source("a.b").sourceKeyPath == "a.b")
    #expect(MappingExpression.keyPath(.variable("destination"), "a").sourceKeyPath == nil)
    #expect(
      MappingExpression.source("countries.@distinctUnionOfSets.moods").collectionOperators == [.distinctUnionOfSets])
    #expect(
      MappingExpression.sourceFetch(entity: "Car", predicate: "year > 2000").sourceFetchRequest?.predicate
        == "year > 2000")
    #expect(relationship.variables == ["manager", "source"])
    #expect(relationship.sourceKeyPaths == ["owner"])
    let coalesce = MappingExpression.conversion(.coalesce, .source("a"), .string("b"))
    #expect(coalesce.conversion?.conversion == .coalesce)
    #expect(coalesce.conversion?.operands == [.source("a"), .string("b")])
    #expect(MappingExpression.function(.source("a"), selector: "lowercaseString", arguments: [.null]).conversion == nil)
    #expect(MappingExpression.string("x").destinationInstances == nil)
  }

  @Test("Expressions survive Codable")
  func codable() throws {
    for (expression, _) in MappingExpressionFormatTests.printed {
      let data = try JSONEncoder().encode(expression)
      #expect(try JSONDecoder().decode(MappingExpression.self, from: data) == expression)
    }
  }

  // MARK: - Bad input

  func refusal(_ data: Data) -> String? {
    do {
      _ = try MappingExpression(archive: data)
      return nil
    } catch {
      return "\(error)"
    }
  }

  @Test("Truncated archives are refused, never a crash")
  func truncated() {
    let data = MappingExpression.destinationInstances(entityMapping: "M", sourceRelationship: "r").archiveData()
    for length in stride(from: 0, to: data.count, by: 7) {
      #expect(refusal(data.prefix(length)) != nil, "\(length) bytes")
    }
  }

  @Test("Damaged bytes are refused or read, never a crash")
  func damaged() {
    let data = MappingExpression.sourceFetch(entity: "Car").archiveData()
    for index in stride(from: 0, to: data.count, by: 3) {
      var bytes = [UInt8](data)
      bytes[index] ^= 0x5A
      _ = refusal(Data(bytes))
    }
  }

  @Test("Base64 text that is not a property list is refused")
  func notAPropertyList() {
    let text = Data("not a plist at all, just text".utf8).base64EncodedString()
    let message = refusal(Data(base64Encoded: text)!)
    #expect(message?.contains("not a binary property list") == true)
  }

  @Test("An archive of an unknown class is refused with the class named")
  func unknownClass() {
    let data = ExpressionArchiveFixture.archive { $0.plain("NSFancyExpression", type: 99, []) }
    let message = refusal(data)
    #expect(message?.contains("NSFancyExpression") == true, "\(message ?? "read")")
    let subquery = ExpressionArchiveFixture.archive { $0.plain("NSSubqueryExpression", type: 13, []) }
    #expect(refusal(subquery)?.contains("NSSubqueryExpression") == true)
    let constant = ExpressionArchiveFixture.archive { fixture in
      let inner = fixture.writer.object(
        className: "NSDecimalNumber", classHierarchy: ["NSDecimalNumber", "NSNumber", "NSObject"], fields: [])
      return fixture.plain("NSConstantValueExpression", type: 0, [("NSConstantValue", inner)])
    }
    #expect(refusal(constant)?.contains("NSDecimalNumber") == true)
  }

  @Test("An expression that contains itself is refused")
  func cycle() {
    let data = ExpressionArchiveFixture.archive { fixture in
      let reference = fixture.writer.reserve()
      let selector = fixture.writer.string("lowercaseString")
      let list = fixture.writer.array([])
      fixture.writer.set(
        reference, className: "NSFunctionExpression",
        classHierarchy: ExpressionArchiveFixture.hierarchy("NSFunctionExpression"),
        fields: [
          ("NSOperand", reference), ("NSSelectorName", selector), ("NSArguments", list),
          ("NSExpressionType", .integer(4)),
        ])
      return reference
    }
    #expect(refusal(data)?.contains("contains itself") == true)
    let setCycle = ExpressionArchiveFixture.archive { fixture in
      let reference = fixture.writer.reserve()
      let other = fixture.plain("NSSelfExpression", type: 1, [])
      fixture.writer.set(
        reference, className: "NSSetExpression", classHierarchy: ExpressionArchiveFixture.hierarchy("NSSetExpression"),
        fields: [("NSLeftExpression", other), ("NSRightExpression", reference), ("NSExpressionType", .integer(5))])
      return reference
    }
    #expect(refusal(setCycle)?.contains("contains itself") == true)
  }

  @Test("Missing fields and a root that is not an expression are refused")
  func malformed() {
    let noVariable = ExpressionArchiveFixture.archive { $0.plain("NSVariableExpression", type: 2, []) }
    #expect(refusal(noVariable)?.contains("NSVariable") == true)
    var writer = KeyedArchiveWriter()
    let root = writer.string("just a string")
    #expect(refusal(writer.data(root: root))?.contains("not an NSExpression") == true)
  }
}
