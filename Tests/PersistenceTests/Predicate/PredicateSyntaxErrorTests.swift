import Foundation
import Persistence
import Testing

@Suite("Predicate syntax errors")
struct PredicateSyntaxErrorTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let format: String
    let arguments: [PredicateValue]
    let kind: PredicateSyntaxError.Kind
    let description: String
    init(_ format: String, _ kind: PredicateSyntaxError.Kind, _ description: String) {
      self.init(format, [], kind, description)
    }
    init(_ format: String, _ arguments: [PredicateValue], _ kind: PredicateSyntaxError.Kind, _ description: String) {
      self.format = format
      self.arguments = arguments
      self.kind = kind
      self.description = description
    }
    var testDescription: String { format.isEmpty ? "(empty)" : format }
  }

  static let cases: [Case] = [
    // Structure.
    Case("title == ", .unexpectedToken, "column 10: expected a value after '==' but found end of input"),
    Case("", .unexpectedToken, "column 1: expected a predicate but found end of input"),
    Case("title", .unexpectedToken, "column 6: expected an operator after 'title' but found end of input"),
    Case("project.name )", .unexpectedToken, "column 14: expected an operator after 'project.name' but found ')'"),
    Case("a AND b", .unexpectedToken, "column 3: expected an operator after 'a' but found 'AND'"),
    Case("a == 1 b == 2", .unexpectedToken, "column 8: expected AND, OR or end of input after '1' but found 'b'"),
    Case("(a == 1", .unexpectedToken, "column 8: expected ')' to close the '(' at column 1 but found end of input"),
    Case(
      "a == 1 OR (b == 2 c == 3)", .unexpectedToken,
      "column 19: expected AND, OR or ')' (closing the '(' at column 11) but found 'c'"),
    Case("a == 1)", .unexpectedToken, "column 7: unbalanced ')': no '(' is open here"),
    Case("a == 1 AND", .unexpectedToken, "column 11: expected a predicate after 'AND' but found end of input"),
    Case("a == 1 OR", .unexpectedToken, "column 10: expected a predicate after 'OR' but found end of input"),
    Case("NOT", .unexpectedToken, "column 4: expected a predicate after 'NOT' but found end of input"),
    Case("ANY == 1", .unexpectedToken, "column 5: expected a key path after 'ANY' but found '=='"),
    Case(
      "a == {1, 2", .unexpectedToken,
      "column 11: expected ',' or '}' to close the '{' at column 6 but found end of input"),
    Case(
      "a.== 1", .unexpectedToken,
      "column 3: expected a key or a collection operator such as @count after '.' but found '=='"),
    Case("a ==[c 1", .unexpectedToken, "column 8: expected ']' after comparison options but found '1'"),
    Case("a == AND", .unexpectedToken, "column 6: expected a value after '==' but found 'AND'"),
    Case(
      "a NOT IN {1}", .unexpectedToken,
      "column 3: 'NOT' cannot follow 'a'; negate the whole comparison instead (NOT a …)"),
    Case(
      "a == @count", .unexpectedToken,
      "column 6: a collection operator must follow a collection, as in 'tags.@count' or 'SELF.@count'"),
    Case("tags.@count.x > 1", .unexpectedToken, "column 12: '@count' is a number and cannot be followed by a key path"),
    Case(
      "items.@sum.x.@count > 1", .unexpectedToken, "column 13: nothing can follow the key path of '@sum' (found '.')"),
    Case(
      "SUBQUERY(x, y, y == 1).@count == 0", .unexpectedToken,
      "column 13: expected a variable such as $x after 'SUBQUERY(x,' but found 'y'"),
    Case(
      "SUBQUERY(x, $y, $y == 1", .unexpectedToken,
      "column 24: expected ')' to close SUBQUERY after '1' but found end of input"),
    Case("a == #", .unexpectedToken, "column 7: expected a name after '#' but found end of input"),
    Case("a == # b", .unexpectedToken, "column 7: expected a name after '#' but found ' '"),
    Case("a == $1", .unexpectedToken, "column 7: expected a name after '$' but found '1'"),
    Case(
      "a == 1 %% 2", .unexpectedToken, "column 8: '%%' (a literal percent sign) is only allowed inside a string literal"
    ),
    // Keywords with did-you-mean.
    Case("title CONTAINZ 'x'", .unknownKeyword, "column 7: unknown operator 'CONTAINZ'; did you mean CONTAINS?"),
    Case("a LIEK 'x'", .unknownKeyword, "column 3: unknown operator 'LIEK'; did you mean LIKE?"),
    Case("a beginwith 'x'", .unknownKeyword, "column 3: unknown operator 'beginwith'; did you mean BEGINSWITH?"),
    Case("a frobnicates 'x'", .unknownKeyword, "column 3: unknown operator 'frobnicates'"),
    Case("ANYY tags.name == 'x'", .unknownKeyword, "column 1: unknown keyword 'ANYY'; did you mean ANY?"),
    Case("a == 1 ANDD b == 2", .unknownKeyword, "column 8: unknown keyword 'ANDD'; did you mean AND?"),
    Case("tags.@counts > 1", .unknownKeyword, "column 6: unknown collection operator '@counts'; did you mean @count?"),
    Case(
      "SUBQUERYY(x, $y, $y == 1)", .unknownKeyword, "column 1: unknown function 'SUBQUERYY'; did you mean SUBQUERY?"),
    Case("a ==[x] 1", .unknownKeyword, "column 6: unknown comparison option 'x'; expected c, d or n (as in [cd])"),
    Case(
      "a == CAST('x', 'NSFoo')", .unknownKeyword,
      "column 16: unsupported CAST type 'NSFoo'; use one of NSDate, NSNumber, NSDecimalNumber, NSString, NSUUID, NSURL, NSData"
    ),
    // Literals.
    Case("a == 'abc", .unterminatedString, "column 6: unterminated string literal (no closing ')"),
    Case("a == \"abc\\", .unterminatedString, "column 10: unterminated string literal (ends after '\\')"),
    Case("a == 'a\\qb'", .invalidEscape, "column 8: invalid escape sequence '\\q'"),
    Case("a == '\\u00g1'", .invalidEscape, "column 7: invalid escape sequence '\\u'; expected four hex digits"),
    Case(
      "a == '\\ud83d'", .invalidEscape,
      "column 7: invalid escape sequence '\\ud83d'; a high surrogate must be followed by \\u<low>"),
    Case("a == '\\xZZ'", .invalidEscape, "column 7: invalid escape sequence '\\x'"),
    Case("a == 12abc", .invalidNumber, "column 6: invalid number '12abc': unexpected 'a'"),
    Case("a == 0x", .invalidNumber, "column 6: invalid number '0x': no digits"),
    Case("a == 0b102", .invalidNumber, "column 6: invalid number '0b102': not a base-2 number"),
    Case(
      "a == 99999999999999999999", .invalidNumber,
      "column 6: invalid number '99999999999999999999': out of the 64-bit integer range"),
    Case("a == ~", .invalidCharacter, "column 6: unexpected character '~'"),
    // Format specifiers and arguments.
    Case(
      "a == %x", .unknownFormatSpecifier,
      "column 6: unknown format specifier '%x'; use %@, %K, %d, %i, %ld, %lld, %u or %f"),
    Case(
      "a == %", .unknownFormatSpecifier,
      "column 6: unknown format specifier '%'; use %@, %K, %d, %i, %ld, %lld, %u or %f"),
    Case(
      "a == %@", .missingArgument,
      "column 6: missing argument for '%@': the format needs more than the 0 arguments given"),
    Case(
      "a == %@ AND b == %d", ["x"], .missingArgument,
      "column 18: missing argument for '%d': the format needs more than the 1 argument given"),
    Case(
      "a == 1", ["x"], .extraArguments,
      "column 7: too many format arguments: the format uses 0 of the 1 given (1 left over)"),
    Case(
      "a == %@", ["x", 2, 3], .extraArguments,
      "column 8: too many format arguments: the format uses 1 of the 3 given (2 left over)"),
    Case("a == %d", ["x"], .argumentTypeMismatch, "column 6: '%d' needs an integer but argument 1 is a string"),
    Case("a == %lld", [1.5], .argumentTypeMismatch, "column 6: '%lld' needs an integer but argument 1 is a double"),
    Case("a == %f", ["x"], .argumentTypeMismatch, "column 6: '%f' needs a number but argument 1 is a string"),
    Case(
      "a == %@ OR %K == 1", ["x", 5], .argumentTypeMismatch,
      "column 12: '%K' needs a key path string but argument 2 is an integer"),
    Case("%K == 1", ["a b"], .invalidKeyPath, "column 1: invalid key path 'a b': 'a b' is not a key name"),
    Case("%K == 1", [""], .invalidKeyPath, "column 1: invalid key path '': empty key"),
    Case("%K == 1", ["a..b"], .invalidKeyPath, "column 1: invalid key path 'a..b': empty key"),
    Case(
      "%K == 1", ["tags.@counts"], .invalidKeyPath,
      "column 1: invalid key path 'tags.@counts': unknown collection operator '@counts'"),
    Case(
      "%K == 1", ["tags.@count.x"], .invalidKeyPath,
      "column 1: invalid key path 'tags.@count.x': '@count' cannot be followed by a key"),
    // Operands.
    Case("a BETWEEN {1}", .invalidOperand, "column 11: BETWEEN needs exactly two bounds {lower, upper}, but found 1"),
    Case(
      "a BETWEEN {1, 2, 3}", .invalidOperand, "column 11: BETWEEN needs exactly two bounds {lower, upper}, but found 3"),
    Case(
      "a BETWEEN %@", [[1, 2, 3]], .invalidOperand,
      "column 11: BETWEEN needs exactly two bounds {lower, upper}, but found 3"),
    Case(
      "a BETWEEN 1", .invalidOperand, "column 11: BETWEEN needs two bounds written {lower, upper}, not a single value"),
    Case("a == CAST('x', 'NSUUID')", .invalidOperand, "column 6: cannot CAST \"x\" to NSUUID"),
    Case("a == CAST('1.5x', 'NSDecimalNumber')", .invalidOperand, "column 6: cannot CAST \"1.5x\" to NSDecimalNumber"),
    Case("a == CAST('!!', 'NSData')", .invalidOperand, "column 6: cannot CAST \"!!\" to NSData"),
    // Unsupported syntax.
    Case(
      "a == b + 1", .unsupported,
      "column 8: '+' is not supported (the predicate syntax here has no arithmetic or bitwise operators)"),
    Case(
      "a == FUNCTION(x)", .unsupported,
      "column 6: 'FUNCTION' is not supported (to use a key named 'FUNCTION', write #FUNCTION)"),
    Case("a == size", .unsupported, "column 6: 'SIZE' is not supported (to use a key named 'size', write #size)"),
    Case(
      "a == foo(x)", .unsupported,
      "column 6: function calls such as 'foo(…)' are not supported; only SUBQUERY(…) and CAST(…) are"),
    Case("a == CAST(b, 'NSDate')", .unsupported, "column 6: CAST of a non-constant value is not supported"),
    Case(
      "tags.@distinctUnionOfObjects.x == 1", .unsupported,
      "column 6: the collection operator '@distinctUnionOfObjects' is not supported; use @count, @sum, @avg, @min or @max"
    ),
  ]

  @Test("every error kind reports its column", arguments: cases)
  func reportsError(_ test: Case) {
    do {
      let predicate = try FetchPredicate(format: test.format, argumentArray: test.arguments)
      Issue.record("expected an error, parsed \(predicate)")
    } catch {
      #expect(error.kind == test.kind)
      #expect(error.description == test.description)
    }
  }

  @Test func everyKindIsCovered() {
    let covered = Set(Self.cases.map(\.kind))
    #expect(covered == Set(PredicateSyntaxError.Kind.allCases))
  }

  @Test func errorCarriesTokenExpectationAndSuggestion() {
    #expect(throws: PredicateSyntaxError.self) { try FetchPredicate(format: "a == 1 ANDD b == 2") }
    do {
      _ = try FetchPredicate(format: "title CONTAINZ 'x'")
    } catch {
      #expect(error.column == 7)
      #expect(error.token == "CONTAINZ")
      #expect(error.suggestion == "CONTAINS")
      #expect(error.expected == "an operator")
    }
    do {
      _ = try FetchPredicate(format: "title == ")
    } catch {
      #expect(error.token == nil)
      #expect(error.expected == "a value after '=='")
      #expect(error.suggestion == nil)
    }
  }

  @Test func columnsCountCharactersNotBytes() {
    do {
      _ = try FetchPredicate(format: "naïve == 'é' ~")
    } catch {
      #expect(error.column == 14)
    }
  }
}
