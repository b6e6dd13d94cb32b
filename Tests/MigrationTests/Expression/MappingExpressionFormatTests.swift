import Foundation
import Migration
import Persistence
import Testing

@Suite("Mapping expressions in NSExpression's format syntax")
struct MappingExpressionFormatTests {
  /// Every kind of expression, with the text it prints as.
  static let printed: [(MappingExpression, String)] = [
    (.source("numberOfFlagella"), "$source.numberOfFlagella"),
    (.string("privacy"), #""privacy""#),
    (.constant(.integer(0)), "0"),
    (.constant(.integer(-42)), "-42"),
    (.constant(.double(2.5)), "2.5"),
    (.constant(.double(3)), "3.0"),
    (.constant(.double(1e20)), "1e+20"),
    (.constant(.bool(true)), "YES"),
    (.constant(.bool(false)), "NO"),
    (.null, "nil"),
    (.constant(.date(Date(timeIntervalSinceReferenceDate: 86400))), #"CAST(86400, "NSDate")"#),
    (.constant(.date(Date(timeIntervalSinceReferenceDate: 0.5))), #"CAST(0.5, "NSDate")"#),
    (.constant(.data(Data([1, 2, 3]))), #"CAST("AQID", "NSData")"#),
    (.constant(.className("_NSPredicateUtilities")), #"CAST("_NSPredicateUtilities", "Class")"#),
    (.evaluatedObject, "SELF"),
    (.variable("entityPolicy"), "$entityPolicy"),
    (.keyPath(.evaluatedObject, "name"), "name"),
    (.keyPath(.evaluatedObject, "size"), "#size"),
    (.keyPath(.variable("source"), "game.type"), "$source.game.type"),
    (.source("countries.@distinctUnionOfSets.moods"), "$source.countries.@distinctUnionOfSets.moods"),
    (.source("items.@count"), "$source.items.@count"),
    (.keyPath(.manager, "sourceContext"), "$manager.sourceContext"),
    (.keyPath(.keyPath(.variable("source"), "a"), "b"), "($source.a).b"),
    (
      .destinationInstances(entityMapping: "PersonToPerson", sourceRelationship: "owner"),
      #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", $source.owner)"#
    ),
    (
      .destinationInstances(sourceRelationshipNamed: "contactGroup"),
      #"FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "contactGroup", $source.contactGroup)"#
    ),
    (
      .function(.variable("entityPolicy"), selector: "migrateIconURL", arguments: []),
      #"FUNCTION($entityPolicy, "migrateIconURL")"#
    ),
    (
      .function(
        .variable("entityPolicy"), selector: "defaultIsActiveForBundleID:team:",
        arguments: [.source("bundleIdentifier"), .source("team")]),
      #"FUNCTION($entityPolicy, "defaultIsActiveForBundleID:team:", $source.bundleIdentifier, $source.team)"#
    ),
    (
      .sourceFetch(entity: "Car"),
      #"FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "Car", "TRUEPREDICATE"), $manager.sourceContext, NO)"#
    ),
    (.aggregate([.constant(.integer(1)), .string("b")]), #"{1, "b"}"#),
    (.aggregate([]), "{}"),
    (.set(.union, .source("a"), .source("b")), "$source.a UNION $source.b"),
    (
      .set(.minus, .set(.intersect, .source("a"), .source("b")), .source("c")),
      "$source.a INTERSECT $source.b MINUS $source.c"
    ),
    (
      .set(.union, .source("a"), .set(.minus, .source("b"), .source("c"))),
      "$source.a UNION ($source.b MINUS $source.c)"
    ),
    (.keyPath(.set(.union, .source("a"), .source("b")), "@count"), "($source.a UNION $source.b).@count"),
    (.symbol("LAST"), "LAST"),
    (.anyKey, "ANYKEY"),
    (.conversion(.lowercase, .source("name")), #"FUNCTION($source.name, "lowercaseString")"#),
    (.conversion(.coalesce, .source("name"), .string("none")), #"FUNCTION($source.name, "coalesce:", "none")"#),
  ]

  @Test("Each expression prints as NSExpression writes it, and reads back equal")
  func printsAndParses() throws {
    for (expression, text) in Self.printed {
      #expect(expression.description == text)
      let parsed = try MappingExpression(format: text)
      #expect(parsed == expression, "\(text)")
      #expect(parsed.description == text)
    }
  }

  @Test("Strings escape so that they read back to the same characters")
  func stringEscapes() throws {
    let strings = [
      "", " ", "say \"hi\"", "back\\slash", "line\nbreak\ttab\rreturn", "nul\0", "100%", "%%@", "\u{1}\u{7F}",
      "emoji 👩‍👩‍👧 é", "it's",
    ]
    for string in strings {
      let expression = MappingExpression.string(string)
      let text = expression.description
      #expect(try MappingExpression(format: text) == expression, "\(text)")
    }
    #expect(MappingExpression.string("a\"b\\c%").description == #""a\"b\\c%%""#)
  }

  @Test("Other spellings read to the same expression and print canonically")
  func otherSpellings() throws {
    let cases: [(String, String)] = [
      ("  $source . name ", "$source.name"),
      ("SELF.name", "name"),
      ("self", "SELF"),
      ("TRUE", "YES"),
      ("false", "NO"),
      ("NULL", "nil"),
      ("'single'", #""single""#),
      ("0x10", "16"),
      (#"CAST("12", "NSNumber")"#, "12"),
      (#"FUNCTION($source,'valueForKey:','x')"#, #"FUNCTION($source, "valueForKey:", "x")"#),
      ("(($source.a))", "$source.a"),
      ("$source.#in", "$source.in"),
      ("#FUNCTION", "#FUNCTION"),
      ("@count", "@count"),
    ]
    for (written, canonical) in cases {
      #expect(try MappingExpression(format: written).description == canonical, "\(written)")
    }
  }

  @Test("Mistakes are reported with their column")
  func errors() {
    let cases: [(String, Int, String)] = [
      ("FUNCTION($manager, ", 20, "expected an expression but found end of input"),
      ("$source.", 9, "expected a key after '.'"),
      ("$source.@bogus", 9, "unknown collection operator '@bogus'"),
      ("\"open", 1, "unterminated string literal"),
      ("$source.a $source.b", 11, "expected the end of the expression"),
      ("FUNCTION($manager)", 1, "FUNCTION needs a receiver and a selector"),
      ("FUNCTION($manager, $source)", 1, "the selector of FUNCTION must be a string literal"),
      ("FETCH(1, 2)", 1, "FETCH takes a fetch request"),
      (#"CAST("x", "NSDate")"#, 1, "CAST takes a constant"),
      ("{1, 2", 6, "expected ',' or '}'"),
      ("$source.a + 1", 11, "'+' is not supported"),
      ("SUBQUERY($source.items, $x, TRUEPREDICATE)", 1, "'SUBQUERY' is not part of the expression syntax"),
      ("", 1, "expected an expression but found end of input"),
    ]
    for (text, column, message) in cases {
      do {
        let parsed = try MappingExpression(format: text)
        Issue.record("\(text) parsed as \(parsed)")
      } catch let error as PredicateSyntaxError {
        #expect(error.column == column, "\(text): \(error)")
        #expect(error.message.contains(message), "\(text): \(error)")
        #expect(error.description.hasPrefix("column \(column): "))
      } catch {
        Issue.record("\(text): \(error)")
      }
    }
  }

  @Test("Deeply nested text is refused, not a crash")
  func deepNesting() {
    let text = String(repeating: "(", count: 5000) + "1" + String(repeating: ")", count: 5000)
    #expect(throws: PredicateSyntaxError.self) { try MappingExpression(format: text) }
  }
}
