import Foundation
import Persistence
import Testing

@Suite("Predicate parser")
struct PredicateParserTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let format: String
    let expected: FetchPredicate
    init(_ format: String, _ expected: FetchPredicate) {
      self.format = format
      self.expected = expected
    }
    var testDescription: String { format }
  }

  static let a = key("a")
  static let one = const(1)

  @Test(
    "comparison operators",
    arguments: [
      Case("a == 1", cmp(a, .equalTo, one)),
      Case("a = 1", cmp(a, .equalTo, one)),
      Case("a != 1", cmp(a, .notEqualTo, one)),
      Case("a <> 1", cmp(a, .notEqualTo, one)),
      Case("a < 1", cmp(a, .lessThan, one)),
      Case("a <= 1", cmp(a, .lessThanOrEqualTo, one)),
      Case("a =< 1", cmp(a, .lessThanOrEqualTo, one)),
      Case("a > 1", cmp(a, .greaterThan, one)),
      Case("a >= 1", cmp(a, .greaterThanOrEqualTo, one)),
      Case("a => 1", cmp(a, .greaterThanOrEqualTo, one)),
      Case("a==1", cmp(a, .equalTo, one)),
      Case("a BETWEEN {1, 5}", cmp(a, .between, const([1, 5]))),
      Case("a between {$lo, 5}", cmp(a, .between, .aggregate([.variable("lo"), const(5)]))),
      Case("a IN {1, 2, 3}", cmp(a, .in, const([1, 2, 3]))),
      Case("a in tags.name", cmp(a, .in, key("tags.name"))),
      Case("a CONTAINS 'x'", cmp(a, .contains, const("x"))),
      Case("a contains 'x'", cmp(a, .contains, const("x"))),
      Case("a BEGINSWITH 'x'", cmp(a, .beginsWith, const("x"))),
      Case("a BeginsWith 'x'", cmp(a, .beginsWith, const("x"))),
      Case("a ENDSWITH 'x'", cmp(a, .endsWith, const("x"))),
      Case("a LIKE 'x*'", cmp(a, .like, const("x*"))),
      Case("a MATCHES '[a-z]+'", cmp(a, .matches, const("[a-z]+"))),
      Case("1 < a", cmp(one, .lessThan, a)),
      Case("'x' IN a", cmp(const("x"), .in, a)),
    ])
  func operators(_ test: Case) throws {
    #expect(try FetchPredicate(format: test.format) == test.expected)
  }

  @Test(
    "comparison options",
    arguments: [
      Case("a ==[c] 'x'", cmp(a, .equalTo, const("x"), .direct, .caseInsensitive)),
      Case("a CONTAINS[d] 'x'", cmp(a, .contains, const("x"), .direct, .diacriticInsensitive)),
      Case("a LIKE[cd] 'x'", cmp(a, .like, const("x"), .direct, [.caseInsensitive, .diacriticInsensitive])),
      Case(
        "a BEGINSWITH[DC] 'x'", cmp(a, .beginsWith, const("x"), .direct, [.caseInsensitive, .diacriticInsensitive])),
      Case("a ENDSWITH[n] 'x'", cmp(a, .endsWith, const("x"), .direct, .normalized)),
      Case(
        "a MATCHES[cdn] 'x'",
        cmp(a, .matches, const("x"), .direct, [.caseInsensitive, .diacriticInsensitive, .normalized])),
      Case("a IN [c] {'x'}", cmp(a, .in, const(["x"]), .direct, .caseInsensitive)),
      Case("a <[c] 'x'", cmp(a, .lessThan, const("x"), .direct, .caseInsensitive)),
    ])
  func options(_ test: Case) throws {
    #expect(try FetchPredicate(format: test.format) == test.expected)
  }

  @Test(
    "modifiers",
    arguments: [
      Case("ANY tags.name == 'x'", cmp(key("tags.name"), .equalTo, const("x"), .any)),
      Case("SOME tags.name == 'x'", cmp(key("tags.name"), .equalTo, const("x"), .any)),
      Case("any tags.name == 'x'", cmp(key("tags.name"), .equalTo, const("x"), .any)),
      Case("ALL tags.name == 'x'", cmp(key("tags.name"), .equalTo, const("x"), .all)),
      Case("NONE tags.name == 'x'", cmp(key("tags.name"), .equalTo, const("x"), .none)),
      Case("NOT ANY tags.name == 'x'", .not(cmp(key("tags.name"), .equalTo, const("x"), .any))),
    ])
  func modifiers(_ test: Case) throws {
    #expect(try FetchPredicate(format: test.format) == test.expected)
  }

  static let p = cmp(key("p"), .equalTo, one)
  static let q = cmp(key("q"), .equalTo, one)
  static let r = cmp(key("r"), .equalTo, one)

  @Test(
    "compound predicates and precedence",
    arguments: [
      Case("p == 1 AND q == 1", .and([p, q])),
      Case("p == 1 && q == 1", .and([p, q])),
      Case("p == 1 and q == 1", .and([p, q])),
      Case("p == 1 OR q == 1", .or([p, q])),
      Case("p == 1 || q == 1", .or([p, q])),
      Case("NOT p == 1", .not(p)),
      Case("! p == 1", .not(p)),
      Case("!(p == 1)", .not(p)),
      Case("not not p == 1", .not(.not(p))),
      Case("p == 1 AND q == 1 AND r == 1", .and([p, q, r])),
      Case("(p == 1 AND q == 1) AND r == 1", .and([.and([p, q]), r])),
      Case("p == 1 AND (q == 1 AND r == 1)", .and([p, .and([q, r])])),
      Case("p == 1 OR q == 1 AND r == 1", .or([p, .and([q, r])])),
      Case("p == 1 AND q == 1 OR r == 1", .or([.and([p, q]), r])),
      Case("(p == 1 OR q == 1) AND r == 1", .and([.or([p, q]), r])),
      Case("NOT p == 1 AND q == 1", .and([.not(p), q])),
      Case("NOT p == 1 OR q == 1", .or([.not(p), q])),
      Case("NOT (p == 1 OR q == 1)", .not(.or([p, q]))),
      Case("((p == 1))", p),
      Case("TRUEPREDICATE", .true),
      Case("falsepredicate", .false),
      Case("TRUEPREDICATE AND NOT FALSEPREDICATE", .and([.true, .not(.false)])),
    ])
  func compounds(_ test: Case) throws {
    #expect(try FetchPredicate(format: test.format) == test.expected)
  }

  @Test(
    "literals",
    arguments: [
      Case("a == nil", cmp(a, .equalTo, const(nil))),
      Case("a == NULL", cmp(a, .equalTo, const(nil))),
      Case("a == YES", cmp(a, .equalTo, const(true))),
      Case("a == true", cmp(a, .equalTo, const(true))),
      Case("a == NO", cmp(a, .equalTo, const(false))),
      Case("a == FALSE", cmp(a, .equalTo, const(false))),
      Case("a == 42", cmp(a, .equalTo, const(42))),
      Case("a == -42", cmp(a, .equalTo, const(-42))),
      Case("a == 0", cmp(a, .equalTo, const(0))),
      Case("a == 9223372036854775807", cmp(a, .equalTo, const(.integer(.max)))),
      Case("a == -9223372036854775808", cmp(a, .equalTo, const(.integer(.min)))),
      Case("a == 0x1F", cmp(a, .equalTo, const(31))),
      Case("a == -0x10", cmp(a, .equalTo, const(-16))),
      Case("a == 0o17", cmp(a, .equalTo, const(15))),
      Case("a == 0b101", cmp(a, .equalTo, const(5))),
      Case("a == 1.5", cmp(a, .equalTo, const(1.5))),
      Case("a == -0.25", cmp(a, .equalTo, const(-0.25))),
      Case("a == 1.5e3", cmp(a, .equalTo, const(1500.0))),
      Case("a == 2E+2", cmp(a, .equalTo, const(200.0))),
      Case("a == 1e-3", cmp(a, .equalTo, const(0.001))),
      Case("a == 1e999", cmp(a, .equalTo, const(.double(.infinity)))),
      Case("a == 'single'", cmp(a, .equalTo, const("single"))),
      Case("a == \"double\"", cmp(a, .equalTo, const("double"))),
      Case("a == ''", cmp(a, .equalTo, const(""))),
      Case("a == {}", cmp(a, .equalTo, const([]))),
      Case("a IN {1, 'two', nil, {3}}", cmp(a, .in, const([1, "two", nil, [3]]))),
      Case("a IN {b, 1}", cmp(a, .in, .aggregate([key("b"), one]))),
      Case("a == 'café ✓ 😀'", cmp(a, .equalTo, const("café ✓ 😀"))),
    ])
  func literals(_ test: Case) throws {
    #expect(try FetchPredicate(format: test.format) == test.expected)
  }

  @Test(
    "string escapes",
    arguments: [
      (#"a == "say \"hi\"""#, "say \"hi\""),
      (#"a == 'it\'s'"#, "it's"),
      (#"a == 'it"s'"#, "it\"s"),
      (#"a == "it's""#, "it's"),
      (#"a == 'back\\slash'"#, "back\\slash"),
      (#"a == 'line\nbreak'"#, "line\nbreak"),
      (#"a == 'tab\there'"#, "tab\there"),
      (#"a == 'cr\r'"#, "cr\r"),
      (#"a == 'nul\0'"#, "nul\0"),
      (#"a == 'caf\u00e9'"#, "café"),
      (#"a == 'caf\u00E9'"#, "café"),
      (#"a == '\ud83d\ude00'"#, "😀"),
      (#"a == '\x41'"#, "A"),
      (#"a == 'a\/b'"#, "a/b"),
      ("a == '100%%'", "100%"),
      ("a == '%@ and %K'", "%@ and %K"),
      ("a == '$VAR'", "$VAR"),
    ])
  func escapes(_ format: String, _ expected: String) throws {
    #expect(try FetchPredicate(format: format) == cmp(Self.a, .equalTo, const(.string(expected))))
  }

  @Test(
    "key paths",
    arguments: [
      Case("project.name == 1", cmp(key("project.name"), .equalTo, one)),
      Case("a.b.c == 1", cmp(key("a.b.c"), .equalTo, one)),
      Case("_private1 == 1", cmp(key("_private1"), .equalTo, one)),
      Case("naïve == 1", cmp(key("naïve"), .equalTo, one)),
      Case("#size == 1", cmp(key("size"), .equalTo, one)),
      Case("#AND == 1", cmp(key("AND"), .equalTo, one)),
      Case("#title == 1", cmp(key("title"), .equalTo, one)),
      Case("list.#first == 1", cmp(key("list.first"), .equalTo, one)),
      Case("list.first == 1", cmp(key("list.first"), .equalTo, one)),
      Case("SELF == 1", cmp(.evaluatedObject, .equalTo, one)),
      Case("self == 1", cmp(.evaluatedObject, .equalTo, one)),
      Case("SELF.name == 1", cmp(key("name"), .equalTo, one)),
      Case("$x == 1", cmp(.variable("x"), .equalTo, one)),
      Case("$x.name.first == 1", cmp(.member(.variable("x"), "name.first"), .equalTo, one)),
      Case("'abc'.length == 1", cmp(.member(const("abc"), "length"), .equalTo, one)),
    ])
  func keyPaths(_ test: Case) throws {
    #expect(try FetchPredicate(format: test.format) == test.expected)
  }

  @Test(
    "collection operators and SUBQUERY",
    arguments: [
      Case(
        "tags.@count > 2",
        cmp(.collectionOperator(.count, collection: key("tags"), keyPath: nil), .greaterThan, const(2))),
      Case(
        "items.@sum.price > 2",
        cmp(.collectionOperator(.sum, collection: key("items"), keyPath: "price"), .greaterThan, const(2))),
      Case(
        "items.@avg.price > 2",
        cmp(.collectionOperator(.avg, collection: key("items"), keyPath: "price"), .greaterThan, const(2))),
      Case(
        "items.@min.price.value > 2",
        cmp(.collectionOperator(.min, collection: key("items"), keyPath: "price.value"), .greaterThan, const(2))),
      Case(
        "project.items.@max.#size > 2",
        cmp(.collectionOperator(.max, collection: key("project.items"), keyPath: "size"), .greaterThan, const(2))),
      Case(
        "scores.@sum > 2",
        cmp(.collectionOperator(.sum, collection: key("scores"), keyPath: nil), .greaterThan, const(2))),
      Case(
        "SELF.@count == 2",
        cmp(.collectionOperator(.count, collection: .evaluatedObject, keyPath: nil), .equalTo, const(2))),
      Case(
        "$x.tags.@count == 2",
        cmp(.collectionOperator(.count, collection: .member(.variable("x"), "tags"), keyPath: nil), .equalTo, const(2))),
      Case(
        "SUBQUERY(tasks, $t, $t.done == NO).@count > 0",
        cmp(
          .collectionOperator(
            .count,
            collection: .subquery(
              collection: key("tasks"), variable: "t",
              predicate: cmp(.member(.variable("t"), "done"), .equalTo, const(false))),
            keyPath: nil),
          .greaterThan, const(0))),
      Case(
        "subquery(tasks, $t, $t.a == 1 AND SUBQUERY($t.subtasks, $s, $s.b == $t.b).@count == 0).@count == 1",
        cmp(
          .collectionOperator(
            .count,
            collection: .subquery(
              collection: key("tasks"), variable: "t",
              predicate: .and([
                cmp(.member(.variable("t"), "a"), .equalTo, one),
                cmp(
                  .collectionOperator(
                    .count,
                    collection: .subquery(
                      collection: .member(.variable("t"), "subtasks"), variable: "s",
                      predicate: cmp(.member(.variable("s"), "b"), .equalTo, .member(.variable("t"), "b"))),
                    keyPath: nil),
                  .equalTo, const(0)),
              ])),
            keyPath: nil),
          .equalTo, one)),
    ])
  func collections(_ test: Case) throws {
    #expect(try FetchPredicate(format: test.format) == test.expected)
  }

  @Test(
    "CAST constants",
    arguments: [
      Case("a == CAST(100.5, 'NSDate')", cmp(a, .equalTo, const(.date(date(100.5))))),
      Case("a == CAST(-7, \"NSDate\")", cmp(a, .equalTo, const(.date(date(-7))))),
      Case("a == CAST('12.50', 'NSDecimalNumber')", cmp(a, .equalTo, const(.decimal(Decimal(string: "12.5")!)))),
      Case("a == CAST(3, 'Decimal')", cmp(a, .equalTo, const(.decimal(3)))),
      Case("a == CAST('42', 'NSNumber')", cmp(a, .equalTo, const(42))),
      Case("a == CAST('4.5', 'NSNumber')", cmp(a, .equalTo, const(4.5))),
      Case("a == CAST(42, 'NSString')", cmp(a, .equalTo, const("42"))),
      Case(
        "a == CAST('E621E1F8-C36C-495A-93FC-0C247A3E6E5F', 'NSUUID')",
        cmp(a, .equalTo, const(.uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)))),
      Case(
        "a == CAST('https://example.com/x', 'NSURL')",
        cmp(a, .equalTo, const(.url(URL(string: "https://example.com/x")!)))),
      Case("a == CAST('3q2+7w==', 'NSData')", cmp(a, .equalTo, const(.data(Data([0xDE, 0xAD, 0xBE, 0xEF]))))),
      Case("a == CAST(nil, 'NSDate')", cmp(a, .equalTo, const(nil))),
    ])
  func casts(_ test: Case) throws {
    #expect(try FetchPredicate(format: test.format) == test.expected)
  }

  @Test func formatObjectArguments() throws {
    let when = date(1000)
    let id = UUID()
    let url = URL(string: "x-coredata://store/Task/p1")!
    #expect(
      try FetchPredicate(format: "title CONTAINS[cd] %@", "café")
        == cmp(key("title"), .contains, const("café"), .direct, [.caseInsensitive, .diacriticInsensitive]))
    #expect(try FetchPredicate(format: "a == %@", 7) == cmp(Self.a, .equalTo, const(7)))
    #expect(try FetchPredicate(format: "a == %@", Int16(7)) == cmp(Self.a, .equalTo, const(7)))
    #expect(try FetchPredicate(format: "a == %@", 2.5) == cmp(Self.a, .equalTo, const(2.5)))
    #expect(try FetchPredicate(format: "a == %@", Float(0.5)) == cmp(Self.a, .equalTo, const(0.5)))
    #expect(try FetchPredicate(format: "a == %@", true) == cmp(Self.a, .equalTo, const(true)))
    #expect(try FetchPredicate(format: "a == %@", Decimal(3)) == cmp(Self.a, .equalTo, const(.decimal(3))))
    #expect(
      try FetchPredicate(format: "a == %@", UInt64.max) == cmp(Self.a, .equalTo, const(.decimal(Decimal(UInt64.max)))))
    #expect(try FetchPredicate(format: "a < %@", when) == cmp(Self.a, .lessThan, const(.date(when))))
    #expect(try FetchPredicate(format: "a == %@", id) == cmp(Self.a, .equalTo, const(.uuid(id))))
    #expect(try FetchPredicate(format: "a == %@", url) == cmp(Self.a, .equalTo, const(.url(url))))
    #expect(try FetchPredicate(format: "a == %@", Data([1, 2])) == cmp(Self.a, .equalTo, const(.data(Data([1, 2])))))
    #expect(try FetchPredicate(format: "a == %@", nil) == cmp(Self.a, .equalTo, const(nil)))
    let missing: String? = nil
    #expect(try FetchPredicate(format: "a == %@", missing) == cmp(Self.a, .equalTo, const(nil)))
    #expect(try FetchPredicate(format: "a IN %@", ["x", "y"]) == cmp(Self.a, .in, const(["x", "y"])))
    #expect(try FetchPredicate(format: "a IN %@", Set([3])) == cmp(Self.a, .in, const([3])))
    #expect(try FetchPredicate(format: "a IN %@", [1, nil] as [Int?]) == cmp(Self.a, .in, const([1, nil])))
    #expect(try FetchPredicate(format: "a BETWEEN %@", [1, 9]) == cmp(Self.a, .between, const([1, 9])))
    #expect(try FetchPredicate(format: "a == %@", PredicateValue.string("v")) == cmp(Self.a, .equalTo, const("v")))
    #expect(try FetchPredicate(format: "a == %@", Substring("sub")) == cmp(Self.a, .equalTo, const("sub")))
  }

  @Test func formatKeyPathArguments() throws {
    #expect(try FetchPredicate(format: "%K == %@", "title", "x") == cmp(key("title"), .equalTo, const("x")))
    #expect(try FetchPredicate(format: "%K == 1", "project.name") == cmp(key("project.name"), .equalTo, Self.one))
    #expect(try FetchPredicate(format: "%K == 1", "size") == cmp(key("size"), .equalTo, Self.one))
    #expect(try FetchPredicate(format: "%K == 1", PredicateKeyPath("a.b")) == cmp(key("a.b"), .equalTo, Self.one))
    #expect(
      try FetchPredicate(format: "%K.@count == 1", "tags")
        == cmp(.collectionOperator(.count, collection: key("tags"), keyPath: nil), .equalTo, Self.one))
    #expect(
      try FetchPredicate(format: "%K == 1", "items.@sum.price")
        == cmp(.collectionOperator(.sum, collection: key("items"), keyPath: "price"), .equalTo, Self.one))
    #expect(try FetchPredicate(format: "%K.name == 1", "project") == cmp(key("project.name"), .equalTo, Self.one))
    #expect(
      try FetchPredicate(format: "ANY %K == %@", "tags.name", "x") == cmp(key("tags.name"), .equalTo, const("x"), .any))
  }

  @Test func formatNumberArguments() throws {
    for spec in ["%d", "%i", "%ld", "%lld", "%u", "%lu", "%llu", "%hd"] {
      #expect(try FetchPredicate(format: "a == \(spec)", 5) == cmp(Self.a, .equalTo, const(5)), "\(spec)")
    }
    #expect(try FetchPredicate(format: "a == %d", true) == cmp(Self.a, .equalTo, const(1)))
    #expect(try FetchPredicate(format: "a == %d", -3) == cmp(Self.a, .equalTo, const(-3)))
    for spec in ["%f", "%lf"] {
      #expect(try FetchPredicate(format: "a == \(spec)", 2.5) == cmp(Self.a, .equalTo, const(2.5)), "\(spec)")
    }
    #expect(try FetchPredicate(format: "a == %f", 2) == cmp(Self.a, .equalTo, const(2.0)))
    #expect(try FetchPredicate(format: "a == %f", Decimal(string: "0.5")!) == cmp(Self.a, .equalTo, const(0.5)))
    #expect(
      try FetchPredicate(format: "a BETWEEN {%d, %d} AND b == %@ AND %K == %f", 1, 2, "x", "c", 1.5)
        == .and([
          cmp(Self.a, .between, const([1, 2])), cmp(key("b"), .equalTo, const("x")),
          cmp(key("c"), .equalTo, const(1.5)),
        ]))
  }

  @Test func quotedSpecifiersAreLiteralAndConsumeNothing() throws {
    #expect(
      try FetchPredicate(format: "a == '%@' AND b == %@", "x")
        == .and([cmp(Self.a, .equalTo, const("%@")), cmp(key("b"), .equalTo, const("x"))]))
  }

  @Test func whitespaceIsInsignificant() throws {
    #expect(try FetchPredicate(format: "  a\n==\t1  ") == cmp(Self.a, .equalTo, Self.one))
    #expect(
      try FetchPredicate(format: "(a==1)AND(b==1)")
        == .and([cmp(Self.a, .equalTo, Self.one), cmp(key("b"), .equalTo, Self.one)]))
  }
}
