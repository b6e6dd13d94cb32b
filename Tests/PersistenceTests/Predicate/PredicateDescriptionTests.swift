import Foundation
import Persistence
import Testing

@Suite("Predicate description")
struct PredicateDescriptionTests {
  @Test(
    "prints canonical format strings",
    arguments: [
      ("title contains[cd] 'café'", #"title CONTAINS[cd] "café""#),
      ("a = 1 and b <> 2 or not c => 3", "a == 1 AND b != 2 OR NOT c >= 3"),
      ("(a == 1 or b == 2) and c == 3", "(a == 1 OR b == 2) AND c == 3"),
      ("a == 1 and (b == 2 and c == 3)", "a == 1 AND (b == 2 AND c == 3)"),
      ("not (a == 1 and b == 2)", "NOT (a == 1 AND b == 2)"),
      ("!!a == 1", "NOT NOT a == 1"),
      ("some tags.name like[c] 'sw*'", #"ANY tags.name LIKE[c] "sw*""#),
      ("none tags.name == nil", "NONE tags.name == nil"),
      ("all tags.name != NULL", "ALL tags.name != nil"),
      ("a =< 1 && b =< 2", "a <= 1 AND b <= 2"),
      ("#size == yes", "#size == TRUE"),
      ("SELF.order.#first == no", "order.#first == FALSE"),
      ("a between {1, 2.5}", "a BETWEEN {1, 2.5}"),
      ("a in {'x', $y}", #"a IN {"x", $y}"#),
      ("a == 0x10 AND b == 1e3", "a == 16 AND b == 1000.0"),
      (#"a == 'it\'s "quoted" \\ 100%% \n'"#, #"a == "it's \"quoted\" \\ 100%% \n""#),
      ("a == '\\u0001'", #"a == "\u0001""#),
      ("items.@sum.price > 10", "items.@sum.price > 10"),
      ("subquery(tasks, $t, $t.done == no).@count > 0", "SUBQUERY(tasks, $t, $t.done == FALSE).@count > 0"),
      ("a == cast(0, 'NSDate')", #"a == CAST(0.0, "NSDate")"#),
      ("a == cast('1.50', 'NSDecimalNumber')", #"a == CAST("1.5", "NSDecimalNumber")"#),
      ("truepredicate or falsepredicate", "TRUEPREDICATE OR FALSEPREDICATE"),
    ])
  func canonical(_ format: String, _ expected: String) throws {
    let predicate = try FetchPredicate(format: format)
    #expect(predicate.description == expected)
    #expect(try FetchPredicate(format: predicate.description) == predicate)
  }

  @Test func printsConstantsOfEveryKind() {
    let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    #expect(PredicateValue.null.description == "nil")
    #expect(PredicateValue.integer(-3).description == "-3")
    #expect(PredicateValue.double(2).description == "2.0")
    #expect(PredicateValue.double(-.infinity).description == "-1e999")
    #expect(PredicateValue.double(.nan).description == #"CAST("nan", "NSNumber")"#)
    #expect(PredicateValue.uuid(id).description == #"CAST("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "NSUUID")"#)
    #expect(
      PredicateValue.url(URL(string: "https://a.example/b")!).description == #"CAST("https://a.example/b", "NSURL")"#)
    #expect(PredicateValue.data(Data([0xDE, 0xAD, 0xBE, 0xEF])).description == #"CAST("3q2+7w==", "NSData")"#)
    #expect(PredicateValue.date(date(-1.5)).description == #"CAST(-1.5, "NSDate")"#)
    #expect(PredicateValue.array([1, "a", nil]).description == #"{1, "a", nil}"#)
  }

  @Test func degenerateCompoundsPrintAsTheirEquivalents() {
    let p = cmp(key("a"), .equalTo, const(1))
    #expect(FetchPredicate.and([]).description == "TRUEPREDICATE")
    #expect(FetchPredicate.or([]).description == "FALSEPREDICATE")
    #expect(FetchPredicate.and([p]).description == "a == 1")
    #expect(FetchPredicate.or([p]).description == "a == 1")
  }

  @Test func keyPathsEscapeReservedWords() {
    #expect(PredicateKeyPath(["project", "size", "In", "name"]).description == "project.#size.#In.name")
    #expect(PredicateKeyPath("project.size").dotted == "project.size")
    #expect(PredicateKeywords.isReserved("subquery"))
    #expect(!PredicateKeywords.isReserved("title"))
  }
}
