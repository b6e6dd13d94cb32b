import DataModel
import Foundation
import Testing

@testable import Persistence

/// The validator's shortcut (`ValidationRules.AttributeCheck.certainlyPasses`) against its full
/// check: the shortcut may leave a value to the full check, but must never pass one that the
/// full check refuses, and must pass the common valid values (or it saves nothing).
@Suite("Validation shortcut")
struct ValidationShortcutTests {
  static let model = ContextFixtures.model(
    """
    <entity name="Everything" representedClassName="Everything">
      <attribute name="title" attributeType="String" minValueString="1" maxValueString="5"/>
      <attribute name="note" optional="YES" attributeType="String"/>
      <attribute name="code" optional="YES" attributeType="String" regularExpressionString="[A-Z]+"/>
      <attribute name="small" attributeType="Integer 16" minValueString="1" maxValueString="3"/>
      <attribute name="medium" optional="YES" attributeType="Integer 32"/>
      <attribute name="large" optional="YES" attributeType="Integer 64" minValueString="-5"/>
      <attribute name="ratio" optional="YES" attributeType="Double" minValueString="0.5" maxValueString="9.5"/>
      <attribute name="weight" optional="YES" attributeType="Float"/>
      <attribute name="flag" optional="YES" attributeType="Boolean"/>
      <attribute name="born" optional="YES" attributeType="Date" minDateTimeInterval="0" maxDateTimeInterval="800000000"/>
      <attribute name="due" optional="YES" attributeType="Date"/>
      <attribute name="identifier" optional="YES" attributeType="UUID"/>
      <attribute name="photo" optional="YES" attributeType="Binary" minValueString="2" maxValueString="4"/>
      <attribute name="blob" optional="YES" attributeType="Binary"/>
      <attribute name="amount" optional="YES" attributeType="Decimal"/>
      <attribute name="link" optional="YES" attributeType="URI"/>
    </entity>
    """)

  /// Values of every kind, inside and outside the attributes' bounds.
  static let values: [AttributeValue?] = [
    nil, .string(""), .string("a"), .string("abcde"), .string("abcdef"), .string("ÄÖÜ"), .string("👩‍👩‍👧‍👦"),
    .string("ABC"), .integer(0), .integer(1), .integer(3), .integer(4), .integer(-6), .integer(40_000),
    .integer(Int64(Int32.max) + 1), .integer(.min), .double(0.4), .double(0.5), .double(9.5), .double(10),
    .double(.nan), .double(.infinity), .float(1), .float(.nan), .boolean(true), .boolean(false),
    .date(Date(timeIntervalSinceReferenceDate: -1)), .date(Date(timeIntervalSinceReferenceDate: 5)),
    .date(Date(timeIntervalSinceReferenceDate: 900_000_000)), .uuid(UUID()), .binary(Data([1])),
    .binary(Data([1, 2, 3])), .binary(Data(count: 10)), .decimal(Decimal(string: "1.5")!),
    .uri(URL(string: "x-coredata://a/b/p1")!),
  ]

  @Test("Never passes a value the full check refuses, for every attribute and value")
  func neverPassesWhatFails() throws {
    let context = try PersistentContainer(model: Self.model, options: .inMemory).newContext()
    let layout = try context.insert(entityNamed: "Everything").layout
    let rules = layout.validationRules
    #expect(rules.attributeChecks.count == 16)
    var validator = ObjectValidator()
    var shortcuts = 0
    for (check, attribute) in zip(rules.attributeChecks, rules.attributes) {
      #expect(check.slot == attribute.slot)
      for value in Self.values {
        let passes = check.certainlyPasses(value)
        let failures = validator.validate(
          value, slot: check.slot, of: layout, objectID: ObjectID(entity: layout.entity, primaryKey: 1))
        if passes {
          shortcuts += 1
          #expect(failures.isEmpty, "\(attribute.name) = \(String(describing: value)): \(failures)")
        }
      }
    }
    #expect(shortcuts > 20)
  }

  @Test("The shortcut on a stored value answers as the shortcut on the value, boxed values aside")
  func storedValuesAnswerAsValues() throws {
    let context = try PersistentContainer(model: Self.model, options: .inMemory).newContext()
    let layout = try context.insert(entityNamed: "Everything").layout
    let checks = layout.validationRules.attributeChecks
    // The entity's typed row (a value of another kind than its slot's is boxed) and a row
    // whose slots hold any value in place.
    for shape in [layout.attributeRowShape, AttributeRowShape(untypedCount: checks.count)] {
      var inPlace = 0
      for check in checks {
        for value in Self.values {
          var values = AttributeValues(shape: shape)
          values[check.slot] = value
          let (stored, isBoxed) = withUnsafePointer(to: values) { pointer in
            let (tag, payload) = AttributeValues.cell(at: check.slot, of: pointer)
            return (check.certainlyPasses(tag: tag, payload: payload), tag == AttributeValueCell.Tag.boxed.rawValue)
          }
          let described = "slot \(check.slot) = \(String(describing: value))"
          if isBoxed {
            #expect(!stored, "\(described)")
          } else {
            inPlace += 1
            #expect(stored == check.certainlyPasses(value), "\(described)")
          }
        }
      }
      #expect(inPlace >= checks.count * 2)
    }
  }

  @Test("Passes the common valid values without the full check")
  func passesCommonValues() throws {
    let context = try PersistentContainer(model: Self.model, options: .inMemory).newContext()
    let layout = try context.insert(entityNamed: "Everything").layout
    let checks = Dictionary(
      uniqueKeysWithValues: zip(layout.validationRules.attributes.map(\.name), layout.validationRules.attributeChecks))
    let common: [(String, AttributeValue?)] = [
      ("title", .string("abc")), ("note", nil), ("note", .string("any length at all")), ("small", .integer(2)),
      ("medium", .integer(-70_000)), ("large", .integer(-5)), ("ratio", .double(1)), ("weight", .float(2)),
      ("flag", .boolean(true)), ("born", .date(Date(timeIntervalSinceReferenceDate: 10))),
      ("due", .date(Date())), ("identifier", .uuid(UUID())), ("blob", .binary(Data(count: 100))),
    ]
    for (name, value) in common {
      let check = try #require(checks[name])
      #expect(check.certainlyPasses(value), "\(name)")
    }
    // Left to the full check: a required value missing, a pattern, a wrong type, NaN.
    let refused: [(String, AttributeValue?)] = [
      ("title", nil), ("code", .string("ABC")), ("small", .string("2")), ("ratio", .double(.nan)),
      ("small", .integer(40_000)), ("photo", .binary(Data([1, 2, 3]))), ("amount", .decimal(1)),
    ]
    for (name, value) in refused {
      let check = try #require(checks[name])
      #expect(!check.certainlyPasses(value), "\(name)")
    }
  }
}
